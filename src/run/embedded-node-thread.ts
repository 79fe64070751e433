// The embedded reference node's thread (started by src/run/embedded-node.ts startEmbeddedNode): it starts
// the node, tells the command its URL and fixtures, and closes it when told to. On a thread of its own,
// the node's module loading and genesis overlap with the command loading its suite runner, and the
// node answers the checks without waiting on the command's event loop (its reporters, its writes).

import { parentPort, workerData } from "node:worker_threads";
import { startNode } from "../node/index.ts";
import type { EmbeddedNodeOptions, FromNodeThread } from "./embedded-node.ts";

const port = parentPort;
if (port === null) throw new Error("embedded-node-thread.ts runs as a worker thread only");
const options = workerData as EmbeddedNodeOptions;
const tell = (message: FromNodeThread) => port.postMessage(message);

try {
  const node = await startNode({
    host: "127.0.0.1",
    port: 0,
    profile: options.profile,
    blockIntervalMs: options.blockIntervalMs,
    ...(options.headerPrefix === undefined ? {} : { headerPrefix: options.headerPrefix }),
  });
  port.once("message", () => {
    void node.close().finally(() => tell({ kind: "closed" }));
  });
  tell({ kind: "listening", url: node.url, fixtures: node.fixtures });
} catch (e) {
  tell({ kind: "failed", message: (e as Error).message });
}
