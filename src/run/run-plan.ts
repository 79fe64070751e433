// A run's plan: what the engine (src/run/engine.ts) runs, built by the command layer from the flags or a
// config file (src/cli/run-plan-of.ts). Its nodes (one, or a fleet's), the options every node's checks
// get, where the reports go, and the inputs read before anything starts (the catalog, the selection,
// the baseline). The engine reads nothing of the command line.

import type { ReportFormat } from "../../reporters/report-format.ts";
import type { LoadSettings, ProfileName } from "../harness/config.ts";
import type { SecretHeaders } from "../harness/secrets.ts";
import type { RunInputs } from "./run-inputs.ts";

/** One node the run checks: its URL (none: the embedded reference node), its fixtures file, its profile. */
export interface NodePlan {
  /** Base URL including /v1; undefined for the reference node started in-process. */
  readonly target?: string;
  /** A fixtures file (JSON). */
  readonly fixtures?: string;
  readonly profile: ProfileName;
}

/** A fleet's node: named, its name its column in the matrix and its report directory (targets/NAME/). */
export interface FleetNodePlan extends NodePlan {
  readonly name: string;
  /** Base URL including /v1: a fleet's nodes are always given. */
  readonly target: string;
  /**
   * Options and inputs of this node's own, in place of the run's (a selection, a baseline, a seed of its
   * own: the self-check's runs). The run's workers and maximum duration stay the run's.
   */
  readonly own?: { readonly options: RunOptions; readonly inputs: RunInputs };
}

/** The run's nodes: one, whose reports are the report directory's; or a fleet, each node's under targets/NAME/, and a matrix. */
export type RunTargets = { readonly one: NodePlan } | { readonly fleet: readonly FleetNodePlan[] };

/** What every node's checks get: the same for all the run's nodes. */
export interface RunOptions {
  readonly headerPrefix?: string;
  readonly allowSubmit: boolean;
  /** --only patterns (their union); empty: every check. */
  readonly only: readonly string[];
  /** --skip patterns. */
  readonly skip: readonly string[];
  readonly level: "all" | "must";
  /** Names lower case, values secret. */
  readonly secretHeaders: SecretHeaders;
  /** An expected-failures file. */
  readonly baseline?: string;
  readonly timeoutMs: number;
  readonly maxDurationMs: number;
  readonly seed?: number;
  readonly replayPath?: string;
  readonly depth: number;
  readonly rateLimit?: number;
  /** The laws under load run; undefined: they are not applicable. */
  readonly load?: LoadSettings;
  /** Requests in flight to a target at once, over the whole run. */
  readonly concurrency: number;
  /** The concurrency was asked for (else a run that waits on the network chooses its own: src/run/workers.ts). */
  readonly concurrencyGiven?: boolean;
  /** Worker threads for the suite files; undefined: the run chooses (src/run/workers.ts). */
  readonly workers?: number;
  /** Undefined: the default for the target's address. */
  readonly clockToleranceMs?: number;
  /** The node the differential mode reads from besides the target, and its fixtures. */
  readonly compareTo?: string;
  readonly compareFixtures?: string;
  /** A difference with the compared node fails the run. */
  readonly failOnDiff?: true;
  /** Every exchange kept in the report directory. */
  readonly record?: true;
}

/** Where the reports go and what the terminal gets. */
export interface ReportPlan {
  readonly dir: string;
  /** What stdout gets at the end: the console table (when absent), or the markdown summary. */
  readonly format?: ReportFormat;
  /** junit.xml with one case per check rather than per requirement. */
  readonly junitPerCheck: boolean;
  /** Where to write the failed MUST ids as a baseline (a one-node run). */
  readonly writeBaseline?: string;
  /** No progress and no lines but the report. */
  readonly quiet: boolean;
  /** false: not even the report on stdout (a caller that reads the reports itself: the self-check). */
  readonly console?: false;
}

export interface RunPlan {
  readonly targets: RunTargets;
  readonly options: RunOptions;
  readonly reports: ReportPlan;
  readonly inputs: RunInputs;
}

/** What one node's run reads: the run's options with the node's target, fixtures and profile, and where its info lines go. */
export type NodeOptions = RunOptions & NodePlan & { readonly format?: ReportFormat };
