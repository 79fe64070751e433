// Before anything runs, the target is probed: a target the suite cannot test at all is a configuration
// error (exit 2, within seconds, the reports saying why): one whose TCP port cannot be reached; one
// that accepts connections but gives no HTTP answer (never answers, answers bytes that are not HTTP,
// resets after reading the request; each tried as the run's client tries every request); and one that
// wants credentials. A target that can be tested is then timed: does a run against it wait on the
// network or on this machine's CPU (latencyBound)?
import { connect as netConnect } from "node:net";
import { cpus } from "node:os";
import { isLoopbackUrl } from "../harness/config.ts";
import type { HttpResponse } from "../harness/http-client.ts";
import type { SecretHeaders } from "../harness/secrets.ts";

export const PROBE_TIMEOUT_MS = 3_000;

/**
 * A target on loopback whose answer took this long sits behind something slow (a proxy, a tunnel, an
 * emulated WAN): a node on this machine answers in a few ms, tens when the machine is loaded.
 */
export const LATENCY_BOUND_ANSWER_MS = 100;

/**
 * Answers timed after the probe's first on a loopback target. The first is not timed: it opens the
 * connection and runs code that neither side has compiled yet (slow on an idle machine, and past
 * LATENCY_BOUND_ANSWER_MS on a loaded one, where a run against a cold local node then started workers it
 * had no CPU for). Up to
 * three, because behind a link whose delay varies one answer can be quick by chance.
 */
export const TIMED_ANSWERS = 3;

/**
 * Slow answers mean a slow link only while this machine had CPU to spare: other processes left at least
 * this share of its CPU time idle while they were timed (this process's own use is not counted: it is
 * loading the suite runner meanwhile). On a busy machine (the tests' own, a CI runner building something
 * else) a local node answers slowly too, and more workers would only make it busier.
 */
export const MIN_IDLE_SHARE = 0.5;

/** An answer this slow is the link's (or the target's) however busy this machine is: no local node's CPU wait comes near it. */
export const SLOW_LINK_ANSWER_MS = 1_000;

export type ProbeResult =
  | {
      readonly ok: true;
      readonly note: string;
      readonly requests: number;
      readonly retries: number;
      /**
       * The run will wait on the network, not on this machine's CPU: the target is remote, or on loopback
       * one of TIMED_ANSWERS answers to GET /-/healthy took LATENCY_BOUND_ANSWER_MS or more while at
       * least MIN_IDLE_SHARE of the machine's CPU time was left idle by other processes, or
       * SLOW_LINK_ANSWER_MS or more.
       */
      readonly latencyBound: boolean;
    }
  | { readonly ok: false; readonly reason: string; readonly requests: number; readonly retries: number };

export interface ProbeOptions {
  readonly secretHeaders?: SecretHeaders;
  readonly connectTimeoutMs?: number;
  /**
   * false: the run's workers do not depend on the answer (given by --workers, the embedded node's
   * run), so no answer is timed and latencyBound goes by the address alone. Default true.
   */
  readonly timeAnswers?: boolean;
  /** The machine's CPU time (default: machineCpuTime); tests give a machine that stays idle. */
  readonly cpuTime?: () => CpuTime;
}

/**
 * TCP first (can we reach it at all?), then GET /-/healthy (does it speak HTTP?). When that answers 401
 * or 403, a second read (GET /estimate_gas_price) tells a gateway that wants credentials from a node
 * that refuses one endpoint: 403 is a status the spec gives some operations, but not both reads
 * refused, and neither answer with the ledger-state headers every node answer carries (§2.7).
 */
export async function probeTarget(target: string, timeoutMs: number, options: ProbeOptions = {}): Promise<ProbeResult> {
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
  // Loaded here rather than with the command (undici, ~0.1 s): the probe often runs while the workers
  // start (src/run/workers.ts), and the command's own start is what they wait on.
  const { HttpClient } = await import("../harness/http-client.ts");
  const client = new HttpClient({
    timeoutMs,
    maxResponseBytes: 1024 * 1024,
    ...(sendsCredentials ? { secretHeaders: options.secretHeaders } : {}),
  });
  const read = (path: string) => client.send({ method: "GET", url: `${target}${path}`, headers: { accept: "application/json" } });
  const counts = () => ({ requests: client.requestCount - client.retryCount, retries: client.retryCount });
  try {
    let health: HttpResponse;
    try {
      health = await read("/-/healthy");
    } catch (e) {
      return {
        ok: false,
        reason: `${target} does not speak HTTP: it accepts connections, but GET /-/healthy got no HTTP answer (${(e as Error).message})`,
        ...counts(),
      };
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
    const latencyBound =
      !isLoopbackUrl(target) ||
      (options.timeAnswers !== false && (await answersSlowlyWhileIdle(() => read("/-/healthy"), options.cpuTime ?? machineCpuTime)));
    return { ok: true, note: `GET /-/healthy answered ${health.status}`, ...counts(), latencyBound };
  } finally {
    await client.destroy().catch(() => undefined);
  }
}

/**
 * Whether one of up to TIMED_ANSWERS answers takes LATENCY_BOUND_ANSWER_MS or more while other processes
 * left at least MIN_IDLE_SHARE of the machine's CPU idle, or SLOW_LINK_ANSWER_MS or more. The first slow
 * answer decides, so that a slow target costs the probe one more answer's time; a read with no answer
 * ends the timing.
 */
async function answersSlowlyWhileIdle(read: () => Promise<HttpResponse>, cpuTime: () => CpuTime): Promise<boolean> {
  const before = cpuTime();
  for (let i = 0; i < TIMED_ANSWERS; i++) {
    let answer: HttpResponse;
    try {
      answer = await read();
    } catch {
      return false;
    }
    if (answer.durationMs >= SLOW_LINK_ANSWER_MS) return true;
    if (answer.durationMs >= LATENCY_BOUND_ANSWER_MS) {
      const after = cpuTime();
      const total = after.total - before.total;
      const idleButOwn = after.idle - before.idle + (after.own - before.own);
      return total > 0 && idleButOwn / total >= MIN_IDLE_SHARE;
    }
  }
  return false;
}

/** CPU time so far, summed over the machine's CPUs (ms): idle, in all, and this process's own. */
export interface CpuTime {
  readonly idle: number;
  readonly own: number;
  readonly total: number;
}

/** The machine's CPU time from os.cpus() (ticks of 10 ms), and this process's from process.cpuUsage(). */
function machineCpuTime(): CpuTime {
  let idle = 0;
  let total = 0;
  for (const { times } of cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  const { user, system } = process.cpuUsage();
  return { idle, total, own: (user + system) / 1000 };
}

/** 401 or 403 without any ledger-state header (whatever the profile's prefix): a gateway's refusal, not a node's. */
function refusesCredentials(res: HttpResponse): boolean {
  if (res.status !== 401 && res.status !== 403) return false;
  return !Object.keys(res.headers).some((name) => name.endsWith("-ledger-version") || name.endsWith("-chain-id"));
}
