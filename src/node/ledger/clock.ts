// The engine's notion of "now". Real time by default; tests drive a ManualClock so block timestamps,
// expiry and health are deterministic.

export interface Clock {
  /** Microseconds since the Unix epoch. */
  nowUsec(): bigint;
}

/** Wall-clock time with microsecond resolution. */
export class SystemClock implements Clock {
  nowUsec(): bigint {
    return BigInt(Math.floor((performance.timeOrigin + performance.now()) * 1000));
  }
}

/** Time that moves only when told to. */
export class ManualClock implements Clock {
  private usec: bigint;

  constructor(startMs: number = Date.now()) {
    this.usec = msToUsec(startMs);
  }

  nowUsec(): bigint {
    return this.usec;
  }

  /** Moves time forward by `ms` milliseconds (fractions allowed down to a microsecond). */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`ManualClock.advance: ${ms} is not a non-negative number`);
    this.usec += msToUsec(ms);
  }

  /** Sets the time to `ms` milliseconds since the Unix epoch. */
  set(ms: number): void {
    this.usec = msToUsec(ms);
  }
}

function msToUsec(ms: number): bigint {
  if (!Number.isFinite(ms)) throw new RangeError(`not a finite time: ${ms}`);
  return BigInt(Math.round(ms * 1000));
}
