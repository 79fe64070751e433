// How many requests the target declined, per endpoint, over the whole run: answered 503 (the node shed
// the request) or 429 (a rate limiter refused it) where neither was the answer asked about (the one rule:
// http-client.ts declinedKind). Every decline is counted, the ones a resend then got past too. The
// counts are kept in memory every worker of the run shares (worker-shared.ts), and the command reads them
// back for the report once the run ends, with the pace the declines brought the run to
// (shared-rate-limit.ts).

import { sharedWithWorker, shareWithWorkers } from "./worker-shared.ts";
import type { Pacing } from "./shared-rate-limit.ts";
import { rate } from "./figures.ts";

/** The declines of one endpoint (an operationId of schemas/openapi.yaml, or "other"). */
export interface EndpointDeclines {
  readonly endpoint: string;
  /** Answered 503 Service Unavailable: the node shed the request. */
  readonly shed: number;
  /** Answered 429 Too Many Requests: a rate limiter refused it. */
  readonly rateLimited: number;
}

/** What the target declined and how the run paced itself, for the report (absent when it declined nothing). */
export interface Declines {
  /** In the order of schemas/openapi.yaml's operations; endpoints with no decline are left out. */
  readonly endpoints: readonly EndpointDeclines[];
  readonly shed: number;
  readonly rateLimited: number;
  /** The pace the declines brought the run to (absent: they never lowered its rate). */
  readonly pacing?: Pacing;
}

const OTHER = "other";

export class DeclineTally {
  readonly #operations: readonly string[];
  /** Two Int32 cells per operation, and two for paths of no operation: shed, then rate-limited. */
  readonly #cells: Int32Array;

  constructor(operations: readonly string[], buffer: SharedArrayBuffer = DeclineTally.buffer(operations)) {
    this.#operations = operations;
    this.#cells = new Int32Array(buffer);
  }

  static buffer(operations: readonly string[]): SharedArrayBuffer {
    return new SharedArrayBuffer(2 * (operations.length + 1) * Int32Array.BYTES_PER_ELEMENT);
  }

  add(operation: string | undefined, kind: "shed" | "rate_limited"): void {
    const index = operation === undefined ? -1 : this.#operations.indexOf(operation);
    const row = index < 0 ? this.#operations.length : index;
    Atomics.add(this.#cells, 2 * row + (kind === "shed" ? 0 : 1), 1);
  }

  /** The counts, or undefined when nothing was declined. */
  declines(pacing?: Pacing): Declines | undefined {
    const endpoints: EndpointDeclines[] = [];
    for (const [row, endpoint] of [...this.#operations, OTHER].entries()) {
      const shed = Atomics.load(this.#cells, 2 * row);
      const rateLimited = Atomics.load(this.#cells, 2 * row + 1);
      if (shed + rateLimited > 0) endpoints.push({ endpoint, shed, rateLimited });
    }
    if (endpoints.length === 0 && pacing === undefined) return undefined;
    const sum = (f: (e: EndpointDeclines) => number) => endpoints.reduce((n, e) => n + f(e), 0);
    return {
      endpoints,
      shed: sum((e) => e.shed),
      rateLimited: sum((e) => e.rateLimited),
      ...(pacing === undefined ? {} : { pacing }),
    };
  }
}

/** In the command, before the workers start: one tally for every worker of the run whose state is in `stateDir`. */
export function shareDeclineTally(stateDir: string, operations: readonly string[]): DeclineTally {
  const buffer = DeclineTally.buffer(operations);
  shareWithWorkers("declines", stateDir, { buffer, operations: [...operations] });
  return new DeclineTally(operations, buffer);
}

/** In a worker: the run's tally as the command shared it, or undefined when it shared none. */
export function sharedDeclineTally(stateDir: string | undefined): DeclineTally | undefined {
  if (stateDir === undefined) return undefined;
  const shared = sharedWithWorker("declines", stateDir) as { buffer?: unknown; operations?: unknown } | undefined;
  if (!(shared?.buffer instanceof SharedArrayBuffer) || !Array.isArray(shared.operations)) return undefined;
  return new DeclineTally(shared.operations as string[], shared.buffer);
}

/** The verdict's advice for a paced run: the rate to start at next time. */
export function pacingHint(d: Declines | undefined): string | undefined {
  if (d?.pacing === undefined) return undefined;
  const n = Math.max(1, Math.floor(d.pacing.settledPerSecond));
  return `the target declined requests and the run paced itself to ${rate(d.pacing.settledPerSecond)} requests/s: pass --rate-limit ${n} to start at that pace`;
}
