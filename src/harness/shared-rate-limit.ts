// The run's request rate, kept by every worker and client together in memory they share: --rate-limit's
// fixed cap, and the pace the run keeps to a node or gateway that declines requests (429, or 503 with
// Retry-After), lowered and raised as TCP's congestion control does (additive increase, multiplicative
// decrease: RFC 5681 §3.1, RFC 9438 §4.6 for the decrease to 0.7). One schedule of send times for all
// the workers, so that the target gets the whole rate whichever workers send, and never more. A client
// without a shared limit keeps the same schedule on a buffer of its own (http-client.ts). A request
// reserves the next free time (at least 1/rate after the one reserved before it, and not before now)
// with a compare-and-swap, and waits for it; with no rate (no cap, nothing declined yet) it goes at
// once. The buffer reaches the workers through worker-shared.ts; the command reads the pace back at
// the run's end for the report.

import { sharedWithWorker, shareWithWorkers } from "./worker-shared.ts";

/** BigInt64 cells of the buffer. Rates are in thousandths of a request per second; times are Date.now() ms. */
const NEXT = 0;
/** The rate requests go at now; 0: no limit. */
const RATE = 1;
/** --rate-limit: the pace never goes above it; 0: none. */
const CEILING = 2;
/** When the rate was last lowered. */
const LAST_DECREASE = 3;
/** The window of the sending rate's measure, and the requests sent in it. */
const SEND_WINDOW = 4;
const SENT = 5;
/** The sending rate over the last whole window. */
const MEASURED = 6;
/** How many times the rate was lowered. */
const DECREASES = 7;
/** The window of the decline share, and the answers and declines in it. */
const ANSWER_WINDOW = 8;
const ANSWERS = 9;
const DECLINES = 10;
/** The rate before the last decrease: the pace grows back to near it fast, and slowly beyond (CUBIC's W_max, RFC 9438 §4.2). */
const BEFORE_DECREASE = 11;
const CELLS = 12;

const MILLI = 1000;
/** Multiplicative decrease: the rate after a decrease is this share of what it was (CUBIC's β, RFC 9438 §4.6). */
export const DECREASE_FACTOR = 0.7;
/** Additive increase: requests per second the rate gains per second of answers, up to RECOVER_SHARE of the rate before the last decrease… */
export const INCREASE_PER_SECOND = 40;
/** …and beyond it, probing for more. */
export const PROBE_PER_SECOND = 8;
const RECOVER_SHARE = 0.9;
/** At most one decrease this often: the declines of requests sent at the old rate count once (TCP lowers once per window). */
const DECREASE_HOLD_MS = 1000;
/**
 * A decrease needs this share of the window's answers declined, and at least DECLINES_AT_LEAST of them:
 * a node that sheds a few requests at random (one in twenty) is not asking for a lower rate, one that
 * declines one in ten is. TCP takes every loss for congestion, and a random loss costs it its rate.
 */
const DECLINE_SHARE = 0.1;
const DECLINES_AT_LEAST = 5;
const WINDOW_MS = 1000;
/** How far behind now a paced request's turn may be: the burst a lull leaves room for. */
const PACE_BURST_MS = 1000;
/** The rate is never lowered below this. */
const MIN_RATE = 1;
/** The rate a first decrease starts from when no sending rate was measured yet. */
const UNMEASURED_RATE = 10;

export class SharedRateLimit {
  readonly #cells: BigInt64Array;

  /** A limit on `buffer`; `perSecond`, --rate-limit's cap, is set on it (every limit of a buffer gives the same). */
  constructor(buffer: SharedArrayBuffer, perSecond?: number) {
    this.#cells = new BigInt64Array(buffer);
    if (perSecond === undefined) return;
    if (!(perSecond > 0) || !Number.isFinite(perSecond))
      throw new RangeError(`a rate limit is a positive number of requests per second, got ${perSecond}`);
    const milli = BigInt(Math.max(1, Math.round(perSecond * MILLI)));
    if (Atomics.compareExchange(this.#cells, CEILING, 0n, milli) === 0n) Atomics.store(this.#cells, RATE, milli);
  }

  /** A buffer for a limit: share it with every worker that is to keep within the same rate. */
  static buffer(): SharedArrayBuffer {
    return new SharedArrayBuffer(CELLS * BigInt64Array.BYTES_PER_ELEMENT);
  }

  /** --rate-limit's cap, or undefined. */
  get perSecond(): number | undefined {
    const ceiling = Number(Atomics.load(this.#cells, CEILING));
    return ceiling === 0 ? undefined : ceiling / MILLI;
  }

  /** The rate requests go at now (requests per second), or undefined when they are not limited. */
  get rate(): number | undefined {
    const rate = Number(Atomics.load(this.#cells, RATE));
    return rate === 0 ? undefined : rate / MILLI;
  }

  /** How many times declines lowered the rate: 0 when the run was never paced. */
  get decreases(): number {
    return Number(Atomics.load(this.#cells, DECREASES));
  }

  /** Waits until this request's time under the rate, which it reserves. */
  async wait(now: () => number = Date.now): Promise<void> {
    this.#countSent(now());
    for (;;) {
      const rate = Number(Atomics.load(this.#cells, RATE));
      if (rate === 0) return;
      const gapMs = (1000 * MILLI) / rate;
      const reserved = Atomics.load(this.#cells, NEXT);
      // A pace the target set (no --rate-limit) lets a second of its rate go at once after a lull, as a
      // token bucket of a second's tokens does (and the window of TCP); --rate-limit spaces every request.
      const burstMs = Atomics.load(this.#cells, CEILING) === 0n ? PACE_BURST_MS : 0;
      const at = Math.max(now() - burstMs, Number(reserved));
      if (Atomics.compareExchange(this.#cells, NEXT, reserved, BigInt(Math.ceil(at + gapMs))) !== reserved) continue;
      // A timer keeps the event loop's monotonic clock in whole milliseconds, not Date.now(): it may fire
      // a little before the reserved time by Date.now(). Wait again until that time has come.
      for (let delay = at - now(); delay > 0; delay = at - now()) await new Promise((resolve) => setTimeout(resolve, delay));
      return;
    }
  }

  /**
   * An answer came back that the target did not decline: a paced rate gains INCREASE_PER_SECOND per
   * second of answers (1/rate of it per answer) while requests wait for their turns, up to --rate-limit's cap.
   */
  answered(now: number = Date.now()): void {
    this.#window(now);
    Atomics.add(this.#cells, ANSWERS, 1n);
    const rate = Atomics.load(this.#cells, RATE);
    if (rate === 0n || Atomics.load(this.#cells, DECREASES) === 0n) return;
    // Raised only while the pace is what holds requests back (their turns run ahead of now): a run
    // sending less than its pace allows learns nothing of the target's limit from its answers, and
    // its pace would grow without bound (RFC 7661: no growth while application-limited).
    const gapMs = (1000 * MILLI) / Number(rate);
    if (Number(Atomics.load(this.#cells, NEXT)) < now - gapMs) return;
    const recovering = Number(rate) < RECOVER_SHARE * Number(Atomics.load(this.#cells, BEFORE_DECREASE));
    const perSecond = recovering ? INCREASE_PER_SECOND : PROBE_PER_SECOND;
    const gain = BigInt(Math.max(1, Math.round((perSecond * MILLI * MILLI) / Number(rate))));
    const ceiling = Atomics.load(this.#cells, CEILING);
    let raised = rate + gain;
    if (ceiling > 0n && raised > ceiling) raised = ceiling;
    // A lost race loses one answer's gain: the rate is an estimate.
    Atomics.compareExchange(this.#cells, RATE, rate, raised);
  }

  /**
   * The target declined a request. A 429 says the client sent too many requests in a given time (RFC
   * 6585 §4): the rate goes down at once. A 503 says the node could not serve it now (RFC 9110 §15.6.4),
   * which says the rate is too high only when one answer in ten is one: a node that sheds a few at
   * random is not asking for less. The rate goes down to DECREASE_FACTOR of what it was, at most once per
   * DECREASE_HOLD_MS; from no limit, to the rate the target answered at in the window (what a rate
   * limiter let through), or DECREASE_FACTOR of the rate requests were sent at.
   */
  declined(kind: "rate_limited" | "shed", now: number = Date.now()): void {
    this.#window(now);
    const declines = Atomics.add(this.#cells, DECLINES, 1n) + 1n;
    const answers = Atomics.load(this.#cells, ANSWERS);
    if (kind === "shed" && (declines < BigInt(DECLINES_AT_LEAST) || Number(declines) < DECLINE_SHARE * Number(answers + declines))) return;
    const last = Atomics.load(this.#cells, LAST_DECREASE);
    if (now - Number(last) < DECREASE_HOLD_MS) return;
    if (Atomics.compareExchange(this.#cells, LAST_DECREASE, last, BigInt(now)) !== last) return;
    const rate = Number(Atomics.load(this.#cells, RATE));
    const lowered = rate > 0 ? this.#lowered(rate, now, Number(answers)) : this.#firstRate(now, Number(answers));
    Atomics.store(this.#cells, BEFORE_DECREASE, BigInt(rate > 0 ? rate : Math.round(lowered / DECREASE_FACTOR)));
    Atomics.store(this.#cells, RATE, BigInt(Math.max(MIN_RATE * MILLI, Math.round(lowered))));
    Atomics.add(this.#cells, DECREASES, 1n);
    // The next window judges the new rate alone.
    Atomics.store(this.#cells, ANSWER_WINDOW, BigInt(now));
    Atomics.store(this.#cells, ANSWERS, 0n);
    Atomics.store(this.#cells, DECLINES, 0n);
  }

  /**
   * A paced rate lowered, in thousandths: to the rate the target answered at in the window when it
   * lasted long enough to tell (what a rate limiter lets through), between DECREASE_FACTOR of the rate
   * and 0.95 of it.
   */
  #lowered(rate: number, now: number, answers: number): number {
    const elapsed = now - Number(Atomics.load(this.#cells, ANSWER_WINDOW));
    const answeredAt = elapsed < 250 ? 0 : (answers * 1000 * MILLI) / elapsed;
    return Math.max(rate * DECREASE_FACTOR, Math.min(rate * 0.95, answeredAt));
  }

  /** The first limit, in thousandths: the rate of the window's answers, when it lasted long enough to tell, else DECREASE_FACTOR of the sending rate. */
  #firstRate(now: number, answers: number): number {
    const elapsed = now - Number(Atomics.load(this.#cells, ANSWER_WINDOW));
    const sending = this.#sendingRate(now) * DECREASE_FACTOR;
    if (elapsed < 250 || answers === 0) return sending;
    return Math.min(sending, (answers * 1000 * MILLI) / elapsed);
  }

  /** Starts a new window of answers and declines when the current one is over. */
  #window(now: number): void {
    const start = Atomics.load(this.#cells, ANSWER_WINDOW);
    if (now - Number(start) < WINDOW_MS) return;
    if (Atomics.compareExchange(this.#cells, ANSWER_WINDOW, start, BigInt(now)) !== start) return;
    Atomics.store(this.#cells, ANSWERS, 0n);
    Atomics.store(this.#cells, DECLINES, 0n);
  }

  /** Counts a request sent, for the sending rate a first decrease starts from. */
  #countSent(now: number): void {
    const start = Atomics.load(this.#cells, SEND_WINDOW);
    if (now - Number(start) >= WINDOW_MS && Atomics.compareExchange(this.#cells, SEND_WINDOW, start, BigInt(now)) === start) {
      const sent = Number(Atomics.exchange(this.#cells, SENT, 0n));
      if (start > 0n) Atomics.store(this.#cells, MEASURED, BigInt(Math.round((sent * 1000 * MILLI) / (now - Number(start)))));
    }
    Atomics.add(this.#cells, SENT, 1n);
  }

  /** Requests per second (in thousandths) sent lately: the last whole window's, or the current one's if higher. */
  #sendingRate(now: number): number {
    const measured = Number(Atomics.load(this.#cells, MEASURED));
    const elapsed = Math.max(250, now - Number(Atomics.load(this.#cells, SEND_WINDOW)));
    const current = (Number(Atomics.load(this.#cells, SENT)) * 1000 * MILLI) / elapsed;
    const rate = Math.max(measured, current);
    return rate > 0 ? rate : UNMEASURED_RATE * MILLI;
  }
}

/** What the run's pace came to, for the report: present when declines lowered it. */
export interface Pacing {
  /** Requests per second the run went at when it ended. */
  readonly settledPerSecond: number;
  /** How many times declines lowered the rate. */
  readonly decreases: number;
}

/** The pace `limit` came to, or undefined when it was never lowered. */
export function pacingOf(limit: SharedRateLimit): Pacing | undefined {
  const rate = limit.rate;
  if (limit.decreases === 0 || rate === undefined) return undefined;
  return { settledPerSecond: Math.round(rate * 10) / 10, decreases: limit.decreases };
}

/** In the command, before the workers start: one rate for every worker of the run whose state is in `stateDir`. */
export function shareRateLimit(stateDir: string, perSecond?: number): SharedRateLimit {
  const buffer = SharedRateLimit.buffer();
  const limit = new SharedRateLimit(buffer, perSecond);
  shareWithWorkers("rate", stateDir, { buffer });
  return limit;
}

/** In a worker: the run's rate, as the command shared it. */
export function sharedRateLimit(stateDir: string | undefined): SharedRateLimit {
  const shared = stateDir === undefined ? undefined : (sharedWithWorker("rate", stateDir) as { buffer?: unknown } | undefined);
  if (!(shared?.buffer instanceof SharedArrayBuffer)) {
    throw new Error(
      `no shared rate limit for the run in ${stateDir ?? "(no state directory)"}: shareRateLimit runs before its workers start`,
    );
  }
  return new SharedRateLimit(shared.buffer);
}
