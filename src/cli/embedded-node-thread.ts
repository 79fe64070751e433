// The embedded reference node in a worker thread of its own. Its start (importing the node, building
// genesis: 2-3 s of CPU) then runs on the other core while this thread loads vitest, and during the
// run its answers do not queue behind the reporters' work on this thread, nor they behind its.
// The thread gets the options, answers with the node's URL and fixtures, and closes the node when
// told to.

import { Worker } from "node:worker_threads";
import type { ProfileName } from "../harness/config.ts";
import type { Fixtures } from "../harness/fixtures.ts";

export interface NodeThread {
  readonly url: string;
  readonly fixtures: Fixtures;
  close(): Promise<void>;
}

interface ThreadData {
  /** The node's module, as a URL the thread imports. */
  readonly nodeModule: string;
  /** tsx's API to register in the thread first, when running the sources. */
  readonly tsxApi: string | undefined;
  readonly options: { readonly host: "127.0.0.1"; readonly port: 0; readonly profile: ProfileName; readonly headerPrefix?: string };
}

type FromThread =
  | { readonly started: { readonly url: string; readonly fixtures: Fixtures } }
  | { readonly failed: string }
  | { readonly closed: true };

/** Run as the thread's script (CommonJS, eval'd): plain JavaScript, so that it needs no transform. */
const THREAD_SCRIPT = `
const { parentPort, workerData } = require("node:worker_threads");
(async () => {
  if (workerData.tsxApi !== undefined) (await import(workerData.tsxApi)).register();
  const { startNode } = await import(workerData.nodeModule);
  const node = await startNode(workerData.options);
  parentPort.once("message", () => node.close().finally(() => parentPort.postMessage({ closed: true })));
  parentPort.postMessage({ started: { url: node.url, fixtures: node.fixtures } });
})().catch((e) => parentPort.postMessage({ failed: e instanceof Error ? e.message : String(e) }));
`;

export function startNodeThread(profile: ProfileName, headerPrefix: string | undefined): Promise<NodeThread> {
  const fromSources = import.meta.url.endsWith(".ts");
  const data: ThreadData = {
    nodeModule: new URL(fromSources ? "../node/index.ts" : "../node/index.js", import.meta.url).href,
    // The sources: a thread inherits neither tsx's in-process registration (the bin) nor, on Node 20,
    // the hooks of its CLI's loader, so it registers tsx itself.
    tsxApi: fromSources ? import.meta.resolve("tsx/esm/api") : undefined,
    options: { host: "127.0.0.1", port: 0, profile, ...(headerPrefix === undefined ? {} : { headerPrefix }) },
  };
  const worker = new Worker(THREAD_SCRIPT, { eval: true, workerData: data });
  let exited = false;
  worker.once("exit", () => {
    exited = true;
  });
  return new Promise<NodeThread>((resolve, reject) => {
    const onExit = (code: number) => reject(new Error(`its thread exited (code ${code}) before the node started`));
    worker.once("error", reject);
    worker.once("exit", onExit);
    worker.once("message", (message: FromThread) => {
      worker.off("error", reject);
      worker.off("exit", onExit);
      if ("failed" in message) {
        void worker.terminate();
        reject(new Error(message.failed));
        return;
      }
      if (!("started" in message)) return;
      // The node failing after its start surfaces as the run's failed requests, not as an uncaught error here.
      worker.on("error", () => undefined);
      const { url, fixtures } = message.started;
      resolve({ url, fixtures, close: () => (exited ? Promise.resolve() : closeThread(worker)) });
    });
  });
}

/** Closes the node (its server and sockets), then ends the thread; a thread already gone is closed. */
function closeThread(worker: Worker): Promise<void> {
  return new Promise<void>((resolve) => {
    worker.once("exit", () => resolve());
    worker.once("message", () => void worker.terminate());
    worker.postMessage("close");
  });
}
