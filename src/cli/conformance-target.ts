// Where the run goes: a URL given with --target, or the reference node started in-process on a free
// loopback port with its own fixtures. Before anything runs, the target is probed: a target whose TCP
// port cannot be reached is a configuration error (exit 2, within seconds); one that accepts the
// connection but does not answer HTTP is reachable, and the suite reports what it does.

import { connect as netConnect } from "node:net";
import type { Fixtures } from "../harness/fixtures.ts";
import type { ProfileName } from "../harness/config.ts";
import { HttpClient } from "../harness/http-client.ts";

export const PROBE_TIMEOUT_MS = 3_000;

export interface EmbeddedNode {
  readonly url: string;
  readonly fixtures: Fixtures;
  close(): Promise<void>;
}

/** The reference node on a free loopback port; imported only here, and only when no --target is given. */
export async function startEmbeddedNode(profile: ProfileName, headerPrefix: string | undefined): Promise<EmbeddedNode> {
  const { startNode } = await import("../node/index.ts");
  const node = await startNode({ host: "127.0.0.1", port: 0, profile, ...(headerPrefix === undefined ? {} : { headerPrefix }) });
  return { url: node.url, fixtures: node.fixtures, close: () => node.close() };
}

export type ProbeResult =
  | { readonly reachable: false; readonly reason: string }
  | { readonly reachable: true; readonly httpStatus: number | null; readonly note: string };

/** TCP first (can we reach it at all?), then one GET /-/healthy (does it speak HTTP?). */
export async function probeTarget(target: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  const url = new URL(target);
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const tcp = await new Promise<string | undefined>((resolve) => {
    const socket = netConnect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(`no TCP connection to ${host}:${port} within ${timeoutMs} ms`);
    }, timeoutMs);
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
  if (tcp !== undefined) return { reachable: false, reason: tcp };
  const client = new HttpClient({ timeoutMs, maxResponseBytes: 1024 * 1024 });
  try {
    const res = await client.send({ method: "GET", url: `${target}/-/healthy`, headers: { accept: "application/json" } });
    return { reachable: true, httpStatus: res.status, note: `GET /-/healthy answered ${res.status}` };
  } catch (e) {
    return { reachable: true, httpStatus: null, note: `connected, but GET /-/healthy got no HTTP answer (${(e as Error).message}); running anyway` };
  } finally {
    await client.destroy().catch(() => undefined);
  }
}
