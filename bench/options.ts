// The command line of `npm run bench`: which parts to run and how long to measure. Every duration is
// an option so a quick look and a careful measurement use the same code.

import { parseArgs } from "node:util";

export interface BenchOptions {
  /** Seconds of load per endpoint in the throughput run. */
  readonly durationSeconds: number;
  /** Seconds of unrecorded load per endpoint before it (lets the JIT settle). */
  readonly warmupSeconds: number;
  readonly connections: number;
  /** Child-process starts per configuration in the start-up run (the median is printed). */
  readonly startupRuns: number;
  /** Genesis sizes for the in-process start-up and read-scaling runs. */
  readonly versions: readonly number[];
  /** Timed batches per read in the read-scaling run (the median is printed). */
  readonly batches: number;
  /** Milliseconds one batch of reads aims to take. */
  readonly batchMs: number;
  /** Default conformance runs (the median is printed). */
  readonly conformanceRuns: number;
}

export const DEFAULT_OPTIONS: BenchOptions = {
  durationSeconds: 5,
  warmupSeconds: 1,
  connections: 8,
  startupRuns: 3,
  versions: [10_000, 100_000, 1_000_000],
  batches: 7,
  batchMs: 40,
  conformanceRuns: 3,
};

export const USAGE = `usage: npm run bench [-- [PART...] [options]]
  PART                   a part (node, self-check, conformance, load, fleet, tests) or one of its sections
                         (node-throughput, node-startup, node-read-scaling, self-check, conformance-run,
                         load-mode, fleet, test-wall); none runs every part
  --duration S           seconds of load per endpoint (default ${DEFAULT_OPTIONS.durationSeconds})
  --warmup S             unrecorded seconds of load before each endpoint (default ${DEFAULT_OPTIONS.warmupSeconds})
  --connections N        concurrent connections (default ${DEFAULT_OPTIONS.connections})
  --startup-runs N       node starts per configuration (default ${DEFAULT_OPTIONS.startupRuns})
  --versions A,B,...     genesis sizes for start-up and read scaling (default ${DEFAULT_OPTIONS.versions.join(",")})
  --batches N            timed batches per read (default ${DEFAULT_OPTIONS.batches})
  --batch-ms MS          target length of one batch (default ${DEFAULT_OPTIONS.batchMs})
  --conformance-runs N   default conformance runs for the median (default ${DEFAULT_OPTIONS.conformanceRuns})
  --help                 print this text`;

export class UsageError extends Error {
  override readonly name = "UsageError";
}

export type ParsedCommandLine =
  | { readonly help: true }
  | { readonly help: false; readonly parts: readonly string[]; readonly options: BenchOptions };

export function parseCommandLine(args: readonly string[]): ParsedCommandLine {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    // parseArgs throws TypeErrors with a code for unknown or malformed flags.
    if (error instanceof TypeError && "code" in error) throw new UsageError(error.message);
    throw error;
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  const options: BenchOptions = {
    durationSeconds: positive("duration", values.duration) ?? DEFAULT_OPTIONS.durationSeconds,
    warmupSeconds: nonNegative("warmup", values.warmup) ?? DEFAULT_OPTIONS.warmupSeconds,
    connections: positive("connections", values.connections) ?? DEFAULT_OPTIONS.connections,
    startupRuns: positive("startup-runs", values["startup-runs"]) ?? DEFAULT_OPTIONS.startupRuns,
    versions: versionList(values.versions) ?? DEFAULT_OPTIONS.versions,
    batches: positive("batches", values.batches) ?? DEFAULT_OPTIONS.batches,
    batchMs: positive("batch-ms", values["batch-ms"]) ?? DEFAULT_OPTIONS.batchMs,
    conformanceRuns: positive("conformance-runs", values["conformance-runs"]) ?? DEFAULT_OPTIONS.conformanceRuns,
  };
  return { help: false, parts: positionals, options };
}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: true,
    options: {
      duration: { type: "string" },
      warmup: { type: "string" },
      connections: { type: "string" },
      "startup-runs": { type: "string" },
      versions: { type: "string" },
      batches: { type: "string" },
      "batch-ms": { type: "string" },
      "conformance-runs": { type: "string" },
      help: { type: "boolean" },
    },
  });
}

function nonNegative(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new UsageError(`--${flag} needs a non-negative integer, got '${value}'`);
  return Number(value);
}

function positive(flag: string, value: string | undefined): number | undefined {
  const n = nonNegative(flag, value);
  if (n === 0) throw new UsageError(`--${flag} must be positive`);
  return n;
}

/** The engine's genesis needs at least 1,000 versions. */
function versionList(value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const list = value.split(",").map((item) => positive("versions", item.trim()) as number);
  const small = list.find((n) => n < 1_000);
  if (small !== undefined) throw new UsageError(`--versions: a genesis needs at least 1000 versions, got ${small}`);
  return list;
}
