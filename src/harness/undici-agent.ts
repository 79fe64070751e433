// undici's Agent, loaded alone. The package's entry (index.js) loads all of undici (fetch, WebSocket,
// caches, mocks), and its cookies module reads a global that makes Node load its own bundled copy of
// undici as well: ~190 ms of CPU in every thread that imports it, against ~70 ms for the dispatcher
// alone (each measured three times in a fresh process). Every worker of a run imports the client, and
// a fleet has twenty. The file is undici's own (the package declares no "exports", so its files are
// reachable); package-lock.json pins the version, and every test that sends a request goes through it.

import { createRequire } from "node:module";
import type { Agent as UndiciAgent } from "undici";

export const Agent = createRequire(import.meta.url)("undici/lib/dispatcher/agent.js") as typeof UndiciAgent;
export type Agent = UndiciAgent;
