// Where the run goes: a URL given with --target, or the reference node started in-process on a free
// loopback port with its own fixtures. Before anything runs, the target is probed, and a target the
// suite cannot test at all is a configuration error (exit 2, within seconds, the reports saying why):
// one whose TCP port cannot be reached; one that accepts connections but gives no HTTP answer (never
// answers, answers bytes that are not HTTP, resets after reading the request; each tried as the run's
// client tries every request); and one that wants credentials.
import { connect as netConnect } from "node:net";
import { Worker } from "node:worker_threads";
import type { Fixtures } from "../harness/fixtures.ts";
import type { ProfileName } from "../harness/config.ts";
import { COMPILED } from "../package-root.ts";
import { HttpClient, type HttpResponse } from "../harness/http-client.ts";
import type { SecretHeaders } from "../harness/secrets.ts";

export const PROBE_TIMEOUT_MS = 3_000;

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

/** What the node's thread (embedded-node-thread.ts) is started with. */
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

/**
 * The reference node on a free loopback port, on a thread of its own (embedded-node-thread.ts), started
 * at once: the promise settles when it listens. Only the thread imports the node's code.
 */
export function startEmbeddedNode(profile: ProfileName, headerPrefix: string | undefined): Promise<EmbeddedNode> {
  const options: EmbeddedNodeOptions = { profile, headerPrefix, blockIntervalMs: EMBEDDED_BLOCK_INTERVAL_MS };
  const thread = new Worker(threadBootstrap(), { workerData: options, execArgv: [] });
  const ended = new Promise<void>((resolve) => thread.once("exit", () => resolve()));
  return new Promise<EmbeddedNode>((resolve, reject) => {
    // Before it listens, an error of the thread is the start's failure; after, the node's bug, reported.
    let listening = false;
    thread.on("error", (error) => (listening ? process.stderr.write(`the reference node's thread failed: ${error.stack ?? error}\n`) : reject(error)));
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

export type ProbeResult =
  | { readonly ok: true; readonly note: string; readonly requests: number; readonly retries: number; readonly answerMs: number }
  | { readonly ok: false; readonly reason: string; readonly requests: number; readonly retries: number };

/**
 * TCP first (can we reach it at all?), then GET /-/healthy (does it speak HTTP?). When that answers 401
 * or 403, a second read (GET /estimate_gas_price) tells a gateway that wants credentials from a node
 * that refuses one endpoint: 403 is a status the spec gives some operations, but not both reads
 * refused, and neither answer with the ledger-state headers every node answer carries (§2.7).
 */
export async function probeTarget(
  target: string,
  timeoutMs: number,
  options: { readonly secretHeaders?: SecretHeaders; readonly connectTimeoutMs?: number } = {},
): Promise<ProbeResult> {
  const connectTimeoutMs = options.connectTimeoutMs ?? PROBE_TIMEOUT_MS;
  // The probe sends the --header headers too: a gateway's credentials are what it checks first.
  const sendsCredentials = Object.keys(options.secretHeaders ?? {}).length > 0;
  const url = new URL(target);
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const tcp = await new Promise<string | undefined>((resolve) => {
    const socket = netConnect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(`no TCP connection to ${host}:${port} within ${connectTimeoutMs} ms`);
    }, connectTimeoutMs);
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(undefined);
    });
    socket.once("error", (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(`${e.code ?? e.name} connecting to ${host}:${port}: ${e.message}`);
    });
  });
  if (tcp !== undefined) return { ok: false, reason: `cannot reach ${target}: ${tcp}`, requests: 0, retries: 0 };
  const client = new HttpClient({ timeoutMs, maxResponseBytes: 1024 * 1024, ...(sendsCredentials ? { secretHeaders: options.secretHeaders } : {}) });
  const read = (path: string) => client.send({ method: "GET", url: `${target}${path}`, headers: { accept: "application/json" } });
  const counts = () => ({ requests: client.requestCount - client.retryCount, retries: client.retryCount });
  try {
    let health: HttpResponse;
    try {
      health = await read("/-/healthy");
    } catch (e) {
      return { ok: false, reason: `${target} does not speak HTTP: it accepts connections, but GET /-/healthy got no HTTP answer (${(e as Error).message})`, ...counts() };
    }
    if (refusesCredentials(health)) {
      let second: HttpResponse | undefined;
      try {
        second = await read("/estimate_gas_price");
      } catch {
        second = undefined;
      }
      if (second !== undefined && refusesCredentials(second)) {
        return {
          ok: false,
          reason: `the target requires authentication: GET /-/healthy answered ${health.status} and GET /estimate_gas_price answered ${second.status}, neither with the ledger-state headers of a node; ${sendsCredentials ? `it refused the credentials given (--header ${Object.keys(options.secretHeaders ?? {}).join(", ")})` : `give the credentials with --header "Name: value"`}`,
          ...counts(),
        };
      }
    }
    return { ok: true, note: `GET /-/healthy answered ${health.status}`, ...counts(), answerMs: health.durationMs };
  } finally {
    await client.destroy().catch(() => undefined);
  }
}

/** 401 or 403 without any ledger-state header (whatever the profile's prefix): a gateway's refusal, not a node's. */
function refusesCredentials(res: HttpResponse): boolean {
  if (res.status !== 401 && res.status !== 403) return false;
  return !Object.keys(res.headers).some((name) => name.endsWith("-ledger-version") || name.endsWith("-chain-id"));
}
