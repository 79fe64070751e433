// One reference node per property test file: started before the file's tests, stopped after them
// together with the scratch files the conformance runs wrote.

import { afterAll, beforeAll } from "vitest";
import { startNode, type RunningNode, type StartNodeOptions } from "../../../src/node/index.ts";
import type { Fixtures } from "../../../src/harness/fixtures.ts";
import { fixturesFile, removeScratch, type ConformanceRun } from "./conformance-run.ts";
import { lawRun } from "./law-runs.ts";
import { throughProxy, type Alteration } from "./law-breaking-proxy.ts";

export interface NodeUnderTest {
  /** The node's base URL (…/v1); read it inside tests, once beforeAll has run. */
  readonly url: string;
  /** Path of a fixtures file written from the node's fixtures. */
  readonly fixtures: string;
  /** The node's fixtures themselves. */
  readonly fixtureData: Fixtures;
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
    get fixtureData() {
      return started().node.fixtures;
    },
  };
}

/**
 * The run of the law `only` (an id), with `extraArgs` as the command's other flags, against `target`
 * seen through a proxy that applies `alteration`; batched with the file's other runs (law-runs.ts).
 */
export function againstAltered(
  target: NodeUnderTest,
  alteration: Alteration,
  only: string,
  extraArgs: readonly string[] = [],
): Promise<ConformanceRun> {
  return throughProxy(target.url, alteration, (url) => lawRun({ url, fixtures: target.fixtureData }, only, extraArgs));
}
