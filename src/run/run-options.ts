// A run's options, as the command's flags give them (src/cli/args.ts parses them): what the run engine,
// the fleet and the embedded node read. Optional members are absent unless the flag was given.

import type { ReportFormat } from "../../reporters/report-format.ts";
import type { LoadSettings, ProfileName } from "../harness/config.ts";
import type { SecretHeaders } from "../harness/secrets.ts";

export interface ConformanceArgs {
  /** The one --target, or the first of several. */
  readonly target?: string;
  /** --target given more than once: every URL, in order (a fleet run, src/fleet/run.ts). */
  readonly fleet?: readonly string[];
  /** --targets FILE: a fleet described by a file (src/fleet/targets.ts). */
  readonly targetsFile?: string;
  readonly fixtures?: string;
  readonly reportDir: string;
  readonly profile: ProfileName;
  readonly headerPrefix?: string;
  readonly allowSubmit: boolean;
  /** --only patterns (their union); empty: every check. */
  readonly only: readonly string[];
  /** --skip patterns. */
  readonly skip: readonly string[];
  readonly level: "all" | "must";
  /** --header (and the config file's headers): names lower case, values secret. */
  readonly secretHeaders: SecretHeaders;
  /** The config file the flags were read from, if any. */
  readonly configFile?: string;
  readonly baseline?: string;
  readonly timeoutMs: number;
  readonly maxDurationMs: number;
  readonly seed?: number;
  readonly replayPath?: string;
  readonly depth: number;
  readonly rateLimit?: number;
  /** --load and --load-duration: the laws under load run; undefined: they are not applicable. */
  readonly load?: LoadSettings;
  /** --concurrency: requests in flight to the target at once, over the whole run. */
  readonly concurrency: number;
  /** --concurrency was given (else a run that waits on the network chooses its own: src/run/workers.ts). */
  readonly concurrencyGiven?: boolean;
  /** --workers: worker threads for the suite files; undefined: the run chooses (src/run/workers.ts). */
  readonly workers?: number;
  /** --clock-tolerance, else the environment variable; undefined: the default for the target. */
  readonly clockToleranceMs?: number;
  readonly quiet: boolean;
  /** --write-baseline: where to write the failed MUST ids as a baseline. */
  readonly writeBaseline?: string;
  /** What stdout gets at the end: the console table (when absent), or the markdown summary. */
  readonly format?: ReportFormat;
  /** junit.xml with one case per check rather than per requirement. */
  readonly junitPerCheck?: true;
  /** --compare-to: the node the differential mode reads from besides the target. */
  readonly compareTo?: string;
  readonly compareFixtures?: string;
  /** Present (true) only when given, like the other members of the differential and record modes. */
  readonly failOnDiff?: true;
  /** --record: every exchange kept in the report directory. */
  readonly record?: true;
}
