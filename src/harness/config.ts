// The run configuration every worker sees. The command resolves it once (flags, fixtures file,
// embedded node) and hands it to the vitest workers as provided context (vitest's `provide`, key
// "runConfig"; the harness reads it with `inject`), so a worker needs nothing else to reach the target.
// A run whose workers start before its target has answered provides all of it but the target's facts,
// which follow once the target answers the probe (RunConfigAwaitingTarget, target-handoff.ts).

import { isIP } from "node:net";
import type { WireProfile } from "../codec/index.ts";
import type { Fixtures } from "./fixtures.ts";
import type { SecretHeaders } from "./secrets.ts";
import type { CheckSelection } from "./selection.ts";

/** What the suite knows of a profile: its wire facts (the codec's table, shared with the reference node). */
export type Profile = WireProfile;
// From the profiles' own file, not the codec's index: the command line parser reads these, and --help
// must not load the codec's curves and hashes.
export { isProfileName, normalizeHeaderPrefix, WIRE_PROFILES, type ProfileName } from "../codec/wire-profiles.ts";

export interface RunConfig {
  /** Base URL including /v1, without a trailing slash. */
  readonly target: string;
  readonly profile: Profile;
  readonly fixtures: Fixtures;
  /** --allow-submit was given: checks may send acceptable transactions to a target not on loopback (t.requireSubmitAllowed). */
  readonly allowSubmit: boolean;
  /** Per request: connect, headers and body each, and the whole exchange. */
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  /** Requests per second: this client's alone, or with sharedRateLimit all the run's workers' together; undefined: no limit. */
  readonly rateLimit?: number;
  /** The rate (--rate-limit's, and the pace declines lower) is kept by all the run's workers together, in memory the command shares with them (shared-rate-limit.ts). */
  readonly sharedRateLimit?: true;
  /**
   * Requests in flight at once from this worker: the bound on the HTTP client, on the checks of a file
   * that run concurrently and on a property's concurrent cases. Its share of --concurrency, or, with
   * `sharedInFlight`, all of it. Undefined: one at a time.
   */
  readonly concurrency?: number;
  /**
   * The run's workers keep within --concurrency together: each client has one slot of its own and
   * shares the others with the other workers (shared-in-flight-limit.ts, shared by the command before
   * they start).
   */
  readonly sharedInFlight?: boolean;
  /** --load: the laws under load run with these clients for this long; undefined: they are not applicable. */
  readonly load?: LoadSettings;
  /** fast-check seed; undefined: random, reported on failure. */
  readonly seed?: number;
  /** fast-check replay path (with seed) of one failing case. */
  readonly replayPath?: string;
  /** Multiplies property runs. */
  readonly depth: number;
  /** How far apart the suite's clock and the node's may be, in ms, when judging §4.7 health thresholds. */
  readonly clockToleranceMs: number;
  /** A directory private to this run, for state shared between workers; its path also names the memory they share (worker-shared.ts). */
  readonly stateDir?: string;
  /**
   * The run's worker threads (the suite runner sets it from its own): how many share its in-flight slots,
   * and, when one, that it keeps its ledger mark to itself (ledger-tracker.ts).
   */
  readonly workers?: number;
  /** Where request bodies too large for a curl line are written (beside the reports). */
  readonly bodiesDir?: string;
  /** The command-line flags that reach this target again (target, profile, fixtures), for replay commands. */
  readonly replayArgs?: string;
  /** The --only pattern, when exactly one was given (a property replays its path only then). */
  readonly only?: string;
  /** The file descriptor for the run's seed line: 2 with --format markdown, whose stdout is the summary alone. */
  readonly infoFd?: 1 | 2;
  /** A fleet's node: the file its run's lines go to instead (its console.txt), so that they say which node they are of. */
  readonly infoFile?: string;
  /** Which checks run (--only, --skip, --level); undefined: every check. */
  readonly selection?: CheckSelection;
  /** --header: sent on every request (HTTP and raw), each value a secret shown as ***. */
  readonly secretHeaders?: SecretHeaders;
  /** --record: where each worker appends the exchanges it makes (recording.ts). */
  readonly recordDir?: string;
}

/** The load mode's size: concurrent reading clients (--load N) and how long they read (--load-duration). */
export interface LoadSettings {
  readonly clients: number;
  readonly durationMs: number;
}

/** What a run learns of its target only once the target is up: where it listens, its fixtures, and the clock tolerance its address sets. */
export type TargetFacts = Pick<RunConfig, "target" | "fixtures" | "clockToleranceMs">;

/** The configuration but the target's facts: what the flags and the run's directories give (with a state directory). */
export type RunConfigWithoutTarget = Omit<RunConfig, keyof TargetFacts | "stateDir"> & { readonly stateDir: string };

/**
 * The configuration of a run whose workers start before its target has answered (the embedded node
 * making its genesis, a remote target being probed; the run engine decides which): all but the
 * target's facts, which the command hands over through the run's state directory once the target
 * answers the probe (target-handoff.ts). The workers load and collect the suites meanwhile; collection reads
 * nothing of the target.
 */
export type RunConfigAwaitingTarget = RunConfigWithoutTarget & { readonly awaitsTarget: true };

/** What the command provides to its workers: the whole configuration, or all of it but the target's facts. */
export type ProvidedRunConfig = RunConfig | RunConfigAwaitingTarget;

/** What checks may read while they are collected, in either case. */
export type CollectionConfig = Omit<RunConfig, keyof TargetFacts>;

declare module "vitest" {
  interface ProvidedContext {
    runConfig: ProvidedRunConfig;
    /**
     * Several runs in one vitest project, by the folder that holds each run's own copy of the suite
     * files (test/support/suite-runs.ts): a worker then serves them all, its modules loaded once,
     * and a check's run is the one its file's folder names. A folder is an absolute path, without a
     * trailing slash.
     */
    runsByFolder: Readonly<Record<string, RunConfig>>;
  }
}

/** The flag that sets RunConfig.clockToleranceMs; checks name it in their messages. */
export const CLOCK_TOLERANCE_FLAG = "--clock-tolerance";
/** Read when --clock-tolerance is not given (milliseconds). */
export const CLOCK_TOLERANCE_ENV = "LEDGER_CONFORMANCE_CLOCK_TOLERANCE_MS";
/** A node on this machine shares its clock: 25 ms covers the scheduling between reading it and the request. */
export const LOOPBACK_CLOCK_TOLERANCE_MS = 25;
/** A remote node is trusted to be within 5 s of this machine by NTP. */
export const REMOTE_CLOCK_TOLERANCE_MS = 5_000;

/** The clock tolerance when none is given. */
export function defaultClockToleranceMs(target: string): number {
  return isLoopbackUrl(target) ? LOOPBACK_CLOCK_TOLERANCE_MS : REMOTE_CLOCK_TOLERANCE_MS;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/** --concurrency when it is not given: requests in flight to one target at once. */
export const DEFAULT_CONCURRENCY = 16;

/**
 * The vitest timeout of one check: six requests' worth of the per-request timeout, and a margin; times
 * the workers when they share one in-flight limit (`sharedInFlight`), as a check's requests may then wait
 * for slots behind the other workers' requests as well as its own worker's.
 */
export function checkTimeoutMs(requestTimeoutMs: number, workersSharingSlots = 1): number {
  return (requestTimeoutMs * 6 + 5_000) * Math.max(1, workersSharingSlots);
}

/** The workers whose requests a check's may wait behind: all of the run's when they share the in-flight limit. */
export function workersSharingSlots(config: Pick<RunConfig, "sharedInFlight" | "workers"> | undefined): number {
  return config?.sharedInFlight === true ? (config.workers ?? 1) : 1;
}
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  if (isIP(host) === 6) return host === "::1" || host.toLowerCase() === "::ffff:127.0.0.1";
  return false;
}

/** Trims a trailing slash so that `${target}${path}` with path "/x" is right. */
export function normalizeTarget(url: string): string {
  return url.replace(/\/+$/, "");
}
