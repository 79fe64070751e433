// undici's Agent and Client, loaded alone. The package's entry (index.js) loads all of undici (fetch,
// WebSocket, caches, mocks), and its cookies module reads a global that makes Node load its own bundled
// copy of undici as well: more than twice the CPU of the dispatcher alone, paid in every thread that
// imports it. Every worker of a run imports the client, and a fleet has many workers. The files are undici's own (the package declares no "exports", so
// its files are reachable); package-lock.json pins the version, and every test that sends a request
// goes through them.

import { createRequire } from "node:module";
import type { Agent as UndiciAgent, Client as UndiciClient } from "undici";

const require = createRequire(import.meta.url);

export const Agent = require("undici/lib/dispatcher/agent.js") as typeof UndiciAgent;
export type Agent = UndiciAgent;

/** One connection to one origin (the Agent's pools are made of these). */
export const Client = require("undici/lib/dispatcher/client.js") as typeof UndiciClient;
export type Client = UndiciClient;
