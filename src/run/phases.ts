// Where a run's time goes, phase by phase, for summary.json's `phases` and the bench. Each phase is
// the wall time from the end of the one before it (performance.now(), whose origin is the process's
// start), so the phases add up to the run's wall time inside this process: the process start (the
// TypeScript loader and the command's imports), the target (the embedded node and its genesis), the
// probe, the workers (vitest and its workers up to the first check), the checks, vitest's end of run
// (vitest then closes while the reports are written), the Allure page and the other reports.

import type { Reporter } from "vitest/node";

export const PHASE_NAMES = ["processStart", "target", "probe", "workers", "checks", "vitestClose", "allure", "reports"] as const;
export type PhaseName = (typeof PHASE_NAMES)[number];
export type Phases = Readonly<Partial<Record<PhaseName, number>>>;

export class PhaseClock {
  #last = 0;
  readonly #phases: Partial<Record<PhaseName, number>> = {};

  /** Ends `name` now: it lasted from the end of the phase before (the process's start for the first). */
  end(name: PhaseName, at: number = performance.now()): void {
    this.#phases[name] = (this.#phases[name] ?? 0) + Math.max(0, at - this.#last);
    this.#last = Math.max(this.#last, at);
  }

  /** Whole milliseconds, in the order of PHASE_NAMES. */
  get phases(): Phases {
    const out: Partial<Record<PhaseName, number>> = {};
    for (const name of PHASE_NAMES) if (this.#phases[name] !== undefined) out[name] = Math.round(this.#phases[name]);
    return out;
  }
}

/** A vitest reporter that notes when the first check began and when the run ended (in the command's process). */
export class PhaseReporter implements Reporter {
  firstCheckAt: number | undefined;
  runEndAt: number | undefined;

  onTestCaseReady(): void {
    this.firstCheckAt ??= performance.now();
  }

  onTestRunEnd(): void {
    this.runEndAt = performance.now();
  }
}
