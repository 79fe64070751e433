// The reference node for a run without a target: started on a free loopback port, on a thread of its own
// (src/run/embedded-node-thread.ts), with its own fixtures. The command's entry starts it as soon as the flags
// are parsed, before the command's own modules load, so that its loading and genesis overlap with
// theirs and with the suite runner's. Only the thread imports the node's code.

import { Worker } from "node:worker_threads";
import { normalizeHeaderPrefix, type ProfileName } from "../harness/config.ts";
import type { Fixtures } from "../harness/fixtures.ts";
import { COMPILED } from "../package-root.ts";
import type { NodeOptions } from "./run-plan.ts";

export interface EmbeddedNode {
  readonly url: string;
  readonly fixtures: Fixtures;
  close(): Promise<void>;
}

/**
 * The embedded node's blocks come every 100 ms (the node's own default is 1 s), as a busy Aptos-family
 * chain's do: a check that waits for its transaction to commit waits ~0.1 s instead of ~1 s, and the
 * ~200 versions a run adds keep the fixtures' history well inside the prune window (1,000 versions).
 */
export const EMBEDDED_BLOCK_INTERVAL_MS = 100;

/** What the node's thread (src/run/embedded-node-thread.ts) is started with. */
export interface EmbeddedNodeOptions {
  readonly profile: ProfileName;
  readonly headerPrefix: string | undefined;
  readonly blockIntervalMs: number;
}

/** What the node's thread tells the command. */
export type FromNodeThread =
  | { readonly kind: "listening"; readonly url: string; readonly fixtures: Fixtures }
  | { readonly kind: "failed"; readonly message: string }
  | { readonly kind: "closed" };

/** The reference node on a free loopback port, on a thread of its own, started at once: the promise settles when it listens. */
export function startEmbeddedNode(profile: ProfileName, headerPrefix: string | undefined): Promise<EmbeddedNode> {
  const options: EmbeddedNodeOptions = { profile, headerPrefix, blockIntervalMs: EMBEDDED_BLOCK_INTERVAL_MS };
  const thread = new Worker(threadBootstrap(), { workerData: options, execArgv: [] });
  const ended = new Promise<void>((resolve) => thread.once("exit", () => resolve()));
  return new Promise<EmbeddedNode>((resolve, reject) => {
    // Before it listens, an error of the thread is the start's failure; after, the node's bug, reported.
    let listening = false;
    thread.on("error", (error) =>
      listening ? process.stderr.write(`the reference node's thread failed: ${error.stack ?? error}\n`) : reject(error),
    );
    thread.once("exit", (code) => reject(new Error(`the node's thread exited (${code}) before it listened`)));
    thread.once("message", (message: FromNodeThread) => {
      if (message.kind !== "listening") {
        reject(new Error(message.kind === "failed" ? message.message : "the node's thread closed before it listened"));
        void thread.terminate();
        return;
      }
      listening = true;
      resolve({
        url: message.url,
        fixtures: message.fixtures,
        async close() {
          const closed = new Promise<void>((done) => thread.once("message", () => done()));
          thread.postMessage("close");
          // A node that does not close in time is stopped with its thread.
          await Promise.race([closed, ended, new Promise((done) => setTimeout(done, CLOSE_GRACE_MS).unref())]);
          await thread.terminate();
        },
      });
    });
  });
}

/** How long close() waits for the node to close its connections before the thread is stopped. */
const CLOSE_GRACE_MS = 5_000;

/**
 * The thread's program: embedded-node-thread.js when compiled; from the .ts sources, the same file
 * behind tsx's loader, registered in the thread (a thread does not inherit the command's loader).
 */
function threadBootstrap(): URL {
  const thread = new URL(`./embedded-node-thread${COMPILED ? ".js" : ".ts"}`, import.meta.url);
  if (COMPILED) return thread;
  const tsx = import.meta.resolve("tsx/esm/api");
  const program = `const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(thread.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(program)}`);
}

/** The reference node for a run without a target, with the run's profile and header prefix. */
export function startEmbeddedNodeFor(args: Pick<NodeOptions, "profile" | "headerPrefix">): Promise<EmbeddedNode> {
  return startEmbeddedNode(args.profile, args.headerPrefix === undefined ? undefined : normalizeHeaderPrefix(args.headerPrefix));
}
