// Before anything runs, the target is probed: a target the suite cannot test at all is a configuration
// error (exit 2, within seconds, the reports saying why): one whose TCP port cannot be reached; one
// that accepts connections but gives no HTTP answer (never answers, answers bytes that are not HTTP,
// resets after reading the request; each tried as the run's client tries every request); and one that
// wants credentials.
import { connect as netConnect } from "node:net";
import { HttpClient, type HttpResponse } from "../harness/http-client.ts";
import type { SecretHeaders } from "../harness/secrets.ts";

export const PROBE_TIMEOUT_MS = 3_000;

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
