// One reference node per property test file: started before the file's tests, stopped after them
// together with the scratch files the conformance runs wrote.

import { afterAll, beforeAll } from "vitest";
import { startNode, type RunningNode, type StartNodeOptions } from "../../../src/node/index.ts";
import { conformanceAgainst, fixturesFile, removeScratch, type ConformanceRun } from "./conformance-run.ts";
import { throughProxy, type Alteration } from "./law-breaking-proxy.ts";

export interface NodeUnderTest {
  /** The node's base URL (…/v1); read it inside tests, once beforeAll has run. */
  readonly url: string;
  /** Path of a fixtures file written from the node's fixtures. */
  readonly fixtures: string;
}

export function referenceNodeForFile(options: StartNodeOptions = {}): NodeUnderTest {
  let node: RunningNode | undefined;
  let fixtures: string | undefined;
  beforeAll(async () => {
    node = await startNode(options);
    fixtures = fixturesFile(node.fixtures);
  }, 60_000);
  afterAll(async () => {
    await node?.close();
    removeScratch();
  });
  const started = () => {
    if (node === undefined || fixtures === undefined) throw new Error("the reference node is read before beforeAll started it");
    return { node, fixtures };
  };
  return {
    get url() {
      return started().node.url;
    },
    get fixtures() {
      return started().fixtures;
    },
  };
}

/** The conformance command, selecting `only`, against `target` seen through a proxy that applies `alteration`. */
export function againstAltered(target: NodeUnderTest, alteration: Alteration, only: string): Promise<ConformanceRun> {
  return throughProxy(target.url, alteration, (url) => conformanceAgainst({ url, fixtures: target.fixtures }, only));
}
