// Pruning (§1, §4.2, §4.4, §4.5) as laws over generated ledger versions: below
// X-NODE-LEDGER-OLDEST-VERSION every versioned read is 410; inside the window it never is; above
// X-NODE-LEDGER-VERSION it is a client error. Versions are placed relative to the window the node
// reports just before each run (never constants), at its edges and anywhere in it, and each answer is
// judged by its own headers when it carries them (the window moves while the suite runs).
//
// With them, the §2.7 header laws over generated sequences of reads: in every answer the oldest
// version and block height are not above the current ones, and from one answer to the next the ledger
// version, timestamp and block height never go back. The harness checks both on every response of the
// run under the same ids; as properties they get a seed, a shrunk sequence and a replay command. And
// the timestamp belongs to the version: answers at one ledger version, spaced apart in time, carry the
// same X-NODE-LEDGER-TIMESTAMPUSEC.

import fc from "fast-check";
import {
  errorCodeOf,
  law,
  undecided,
  type CheckContext,
  type HttpResponse,
  type LedgerState,
  type RequestSpec,
} from "../src/harness/index.ts";
import { currentWindow, PPM, U64_MAX, versionAt, type LedgerWindow } from "../suites/support/ledger-window.ts";
import { requirePruning, versionedReads, type VersionedRead } from "../suites/support/versioned-reads.ts";

/** Versions this close to the oldest may be pruned between the probe and the read; inside-window runs stay above them. */
const PRUNING_MARGIN = 100n;

type Below = { readonly read: number } & (
  | { readonly kind: "edge"; readonly k: bigint }
  | { readonly kind: "anywhere"; readonly ppm: number }
);
type Inside = { readonly read: number } & (
  | { readonly kind: "top"; readonly k: bigint }
  | { readonly kind: "anywhere"; readonly ppm: number }
);
type Above = { readonly read: number } & ({ readonly kind: "ahead"; readonly k: bigint } | { readonly kind: "u64-max" });

const below: fc.Arbitrary<Below> = fc.oneof(
  fc.record({ read: fc.nat(), kind: fc.constant("edge" as const), k: fc.bigInt({ min: 0n, max: 10n }) }),
  fc.record({ read: fc.nat(), kind: fc.constant("anywhere" as const), ppm: fc.integer({ min: 0, max: PPM }) }),
);
const inside: fc.Arbitrary<Inside> = fc.oneof(
  fc.record({ read: fc.nat(), kind: fc.constant("top" as const), k: fc.bigInt({ min: 0n, max: 10n }) }),
  fc.record({ read: fc.nat(), kind: fc.constant("anywhere" as const), ppm: fc.integer({ min: 0, max: PPM }) }),
);
const above: fc.Arbitrary<Above> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ read: fc.nat(), kind: fc.constant("ahead" as const), k: fc.bigInt({ min: 1n, max: 10n }) }) },
  {
    weight: 2,
    arbitrary: fc.record({ read: fc.nat(), kind: fc.constant("ahead" as const), k: fc.bigInt({ min: 1n, max: 1_000_000_000_000n }) }),
  },
  { weight: 1, arbitrary: fc.record({ read: fc.nat(), kind: fc.constant("u64-max" as const) }) },
);

function belowVersion(w: LedgerWindow, b: Below): bigint {
  const highest = w.oldest - 1n;
  if (b.kind === "edge") return b.k > highest ? 0n : highest - b.k;
  return versionAt({ oldest: 0n, latest: highest }, BigInt(b.ppm), BigInt(PPM));
}

function insideVersion(w: LedgerWindow, i: Inside): bigint {
  const margin = (w.latest - w.oldest) / 10n < PRUNING_MARGIN ? (w.latest - w.oldest) / 10n : PRUNING_MARGIN;
  const low = w.oldest + margin;
  if (i.kind === "top") return w.latest - i.k < low ? low : w.latest - i.k;
  return versionAt({ oldest: low, latest: w.latest }, BigInt(i.ppm), BigInt(PPM));
}

function aboveVersion(w: LedgerWindow, a: Above): bigint {
  if (a.kind === "u64-max" || w.latest + a.k > U64_MAX) return U64_MAX;
  return w.latest + a.k;
}

interface Reads {
  readonly reads: readonly VersionedRead[];
  /** Whether the node prunes anything (X-NODE-LEDGER-OLDEST-VERSION above 0). */
  readonly prunes: boolean;
}

async function reads(t: CheckContext): Promise<Reads> {
  const w = await currentWindow(t);
  return { reads: await versionedReads(t), prunes: w.oldest > 0n };
}

async function prunedReads(t: CheckContext): Promise<Reads> {
  const setup = await reads(t);
  requirePruning(t, setup.prunes);
  return setup;
}

function pick(setup: Reads, index: number): VersionedRead {
  return setup.reads[index % setup.reads.length] as VersionedRead;
}

async function readAt(t: CheckContext, read: VersionedRead, version: bigint): Promise<{ res: HttpResponse; s: LedgerState }> {
  const res = await t.request(read.request(version.toString()));
  return { res, s: t.ledgerState(res) };
}

const oldestName = (t: CheckContext) => t.headerName("LEDGER-OLDEST-VERSION");
const latestName = (t: CheckContext) => t.headerName("LEDGER-VERSION");

law(
  "1/pruned-version-law",
  { numRuns: 20 },
  prunedReads,
  () => below,
  async (t, b, setup) => {
    const w = await currentWindow(t);
    const read = pick(setup, b.read);
    const v = belowVersion(w, b);
    const { res, s } = await readAt(t, read, v);
    // Pruning only moves forward, so the window before the request bounds it; the answer's own header, when present, is exact.
    const oldest = s.oldestVersion ?? w.oldest;
    if (v >= oldest) {
      t.expect(
        res.status !== 410,
        `not 410: ledger_version ${v} of ${read.name} is inside the window the answer itself reports (${oldestName(t)} ${oldest})`,
        res,
      );
      return undecided(`ledger_version ${v} was not below the answer's ${oldestName(t)} ${oldest}`);
    }
    t.expect(res.status === 410, `410: ledger_version ${v} of ${read.name} is below ${oldestName(t)} ${oldest}, so it was pruned`, res);
  },
);

law(
  "1/window-version-law",
  { numRuns: 20 },
  reads,
  () => inside,
  async (t, i, setup) => {
    const w = await currentWindow(t);
    const read = pick(setup, i.read);
    const v = insideVersion(w, i);
    const { res, s } = await readAt(t, read, v);
    const oldest = s.oldestVersion ?? w.oldest;
    const latest = s.ledgerVersion ?? w.latest;
    if (v < oldest) {
      // Pruned between the probe and the read (the answer says so): then it is the pruned law's case.
      t.expect(res.status === 410, `410: ledger_version ${v} fell below ${oldestName(t)} ${oldest} before the node answered`, res);
      return undecided(`ledger_version ${v} fell below ${oldestName(t)} ${oldest} before the node answered`);
    }
    const code = errorCodeOf(res);
    t.expect(
      res.status === 200 || (res.status === 404 && code !== "version_not_found"),
      `200, or 404 for ${read.name} absent at that version, never 410 or version_not_found: ledger_version ${v} is inside [${oldest}, ${latest}] (${oldestName(t)}, ${latestName(t)})`,
      res,
    );
  },
);

/**
 * One version past X-NODE-LEDGER-VERSION on every read, whatever the seed: a node whose header is one
 * short of the version its reads reflect answers that version 200, and the draws (1 to 10 ahead, or
 * far) meet it only in a run or so of twenty.
 */
/** How often a case whose version the ledger reached before the answer reads again. */
const OVERTAKEN_ATTEMPTS = 4;

const justAhead = (setup: Reads): Above[] => setup.reads.map((_, read) => ({ read, kind: "ahead", k: 1n }));

law(
  "4/future-version-law",
  { numRuns: 20, examples: justAhead },
  reads,
  () => above,
  async (t, a, setup) => {
    const read = pick(setup, a.read);
    // A version just ahead is reached by the next block: a case the ledger overtook asks again, ahead of
    // a window read anew. Cases run at once share their moment, and all of them could meet a block.
    for (let attempt = 1; ; attempt++) {
      const w = await currentWindow(t);
      const v = aboveVersion(w, a);
      const { res, s } = await readAt(t, read, v);
      if (s.ledgerVersion !== undefined && v <= s.ledgerVersion) {
        // The ledger reached v before the node answered: v is no longer in the future.
        t.expect(res.status !== 410, `not 410: ledger_version ${v} is at or below the answer's ${latestName(t)} ${s.ledgerVersion}`, res);
        if (attempt < OVERTAKEN_ATTEMPTS) continue;
        return undecided(`the ledger reached ledger_version ${v} before the node answered, ${attempt} times`);
      }
      t.expectClientError(
        res,
        `ledger_version ${v} of ${read.name} is above ${latestName(t)} ${s.ledgerVersion ?? w.latest}, so neither there nor pruned`,
        { except: [410] },
      );
      return;
    }
  },
);

type Misplaced = { readonly side: "below"; readonly b: Below } | { readonly side: "above"; readonly a: Above };

law(
  "4/version-code-law",
  { numRuns: 15 },
  reads,
  (setup) =>
    setup.prunes
      ? fc.oneof(
          below.map((b): Misplaced => ({ side: "below", b })),
          above.map((a): Misplaced => ({ side: "above", a })),
        )
      : above.map((a): Misplaced => ({ side: "above", a })),
  async (t, m, setup) => {
    const w = await currentWindow(t);
    const read = pick(setup, m.side === "below" ? m.b.read : m.a.read);
    const v = m.side === "below" ? belowVersion(w, m.b) : aboveVersion(w, m.a);
    const { res, s } = await readAt(t, read, v);
    const code = errorCodeOf(res);
    if (m.side === "below") {
      const oldest = s.oldestVersion ?? w.oldest;
      if (v >= oldest)
        return undecided(`ledger_version ${v} is inside the answer's own window (${oldestName(t)} ${oldest}): no code to demand`);
      t.expect(
        res.status === 410 && code === "version_pruned",
        `410 version_pruned: ledger_version ${v} is below ${oldestName(t)} ${oldest}`,
        res,
      );
    } else {
      if (s.ledgerVersion !== undefined && v <= s.ledgerVersion)
        return undecided(`the ledger reached ledger_version ${v}: no code to demand`);
      t.expect(
        res.status === 404 && code === "version_not_found",
        `404 version_not_found: ledger_version ${v} is above ${latestName(t)} ${s.ledgerVersion ?? w.latest}`,
        res,
      );
    }
  },
);

// --- §2.7 header laws over generated sequences of reads

type Step =
  | { readonly kind: "read"; readonly read: number; readonly ppm: number | null }
  | { readonly kind: "health" }
  | { readonly kind: "gas" };

const steps: fc.Arbitrary<Step[]> = fc.array(
  fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record({ kind: fc.constant("read" as const), read: fc.nat(), ppm: fc.option(fc.integer({ min: 0, max: PPM })) }),
    },
    { weight: 1, arbitrary: fc.constant<Step>({ kind: "health" }) },
    { weight: 1, arbitrary: fc.constant<Step>({ kind: "gas" }) },
  ),
  { minLength: 2, maxLength: 6 },
);

/** The request a step makes; a read's `ppm` places its ledger_version inside the window `w`. */
function stepRequest(step: Step, setup: Reads, w: LedgerWindow): RequestSpec {
  if (step.kind === "health") return { path: "/-/healthy" };
  if (step.kind === "gas") return { path: "/estimate_gas_price" };
  return pick(setup, step.read).request(
    step.ppm === null ? undefined : insideVersion(w, { read: 0, kind: "anywhere", ppm: step.ppm }).toString(),
  );
}

/**
 * Runs the steps in order (after a probe that places versions) and returns every answer with its state;
 * `pauseMs` apart when given.
 */
async function runSteps(
  t: CheckContext,
  list: readonly Step[],
  setup: Reads,
  pauseMs = 0,
): Promise<{ res: HttpResponse; s: LedgerState }[]> {
  const w = await currentWindow(t);
  const answers: { res: HttpResponse; s: LedgerState }[] = [];
  for (const step of list) {
    if (pauseMs > 0 && answers.length > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    const res = await t.request(stepRequest(step, setup, w));
    answers.push({ res, s: t.ledgerState(res) });
  }
  return answers;
}

/** Sends the steps at once, each `staggerMs` after the one before it, and returns the answers in order. */
async function sendSteps(
  t: CheckContext,
  list: readonly Step[],
  setup: Reads,
  staggerMs: number,
): Promise<{ res: HttpResponse; s: LedgerState }[]> {
  const w = await currentWindow(t);
  return Promise.all(
    list.map(async (step, n) => {
      await new Promise((resolve) => setTimeout(resolve, n * staggerMs));
      const res = await t.request(stepRequest(step, setup, w));
      return { res, s: t.ledgerState(res) };
    }),
  );
}

law(
  "2.7/header-consistency",
  { numRuns: 15 },
  reads,
  () => steps,
  async (t, list, setup) => {
    let compared = 0;
    for (const { res, s } of await runSteps(t, list, setup)) {
      if (s.oldestVersion !== undefined && s.ledgerVersion !== undefined) {
        compared += 1;
        t.expect(
          s.oldestVersion <= s.ledgerVersion,
          `${oldestName(t)} ${s.oldestVersion} <= ${latestName(t)} ${s.ledgerVersion} in one answer (§2.7)`,
          res,
        );
      }
      if (s.oldestBlockHeight !== undefined && s.blockHeight !== undefined) {
        t.expect(
          s.oldestBlockHeight <= s.blockHeight,
          `${t.headerName("OLDEST-BLOCK-HEIGHT")} ${s.oldestBlockHeight} <= ${t.headerName("BLOCK-HEIGHT")} ${s.blockHeight} in one answer (§2.7)`,
          res,
        );
      }
    }
    return compared === 0 ? undecided("no answer carried both the oldest and the current version") : undefined;
  },
);

/**
 * One sequence that goes from a read to each of the other endpoints and back, whatever the seed: a node
 * whose health or gas answers come from a lagging cache goes back only across endpoints, which a
 * generated sequence of 2 to 6 steps does not always cross.
 */
const acrossEndpoints: Step[] = [
  { kind: "read", read: 0, ppm: null },
  { kind: "health" },
  { kind: "read", read: 1, ppm: null },
  { kind: "gas" },
  { kind: "read", read: 0, ppm: null },
];

law(
  "2.7/ledger-state-monotonic",
  { numRuns: 15, examples: () => [acrossEndpoints] },
  reads,
  () => steps,
  async (t, list, setup) => {
    const answers = await runSteps(t, list, setup);
    let compared = 0;
    for (let n = 1; n < answers.length; n++) {
      const before = (answers[n - 1] as { s: LedgerState }).s;
      const { res, s } = answers[n] as { res: HttpResponse; s: LedgerState };
      const back: string[] = [];
      const compare = (name: string, earlier: bigint | undefined, later: bigint | undefined) => {
        if (earlier === undefined || later === undefined) return;
        compared += 1;
        if (later < earlier) back.push(`${t.headerName(name)} ${later} < ${earlier}`);
      };
      compare("LEDGER-VERSION", before.ledgerVersion, s.ledgerVersion);
      compare("LEDGER-TIMESTAMPUSEC", before.timestampUsec, s.timestampUsec);
      compare("BLOCK-HEIGHT", before.blockHeight, s.blockHeight);
      t.expect(back.length === 0, "the ledger state at least as far as the answer before it in the sequence (§2.7)", res, back.join(", "));
    }
    return compared === 0 ? undecided("no two answers in a row carried the same ledger header") : undefined;
  },
);

/**
 * Between two steps of the timestamp law: a header written from a clock of millisecond resolution
 * (Date.now() in µs) is the same within one millisecond, so answers closer than that could agree by
 * chance.
 */
const TIMESTAMP_PAUSE_MS = 3;

/**
 * A ledger that moves faster than the steps (the embedded node makes a block every 100 ms; a loaded
 * machine or a distant node makes each step slower than that) leaves no two answers at one version.
 * The case then sends its steps at once, `TIMESTAMP_PAUSE_MS` apart, so that they meet one version;
 * a few times at most, and undecided after that.
 */
const AT_ONCE_ATTEMPTS = 3;

law(
  "2.7/timestamp-of-ledger-version",
  { numRuns: 10, examples: () => [acrossEndpoints] },
  reads,
  () => steps,
  async (t, list, setup) => {
    let pairs = atOneVersion(await runSteps(t, list, setup, TIMESTAMP_PAUSE_MS));
    for (let attempt = 0; attempt < AT_ONCE_ATTEMPTS && pairs.length === 0; attempt++) {
      pairs = atOneVersion(await sendSteps(t, list, setup, TIMESTAMP_PAUSE_MS));
    }
    for (const { version, first, later } of pairs) {
      t.expect(
        later.timestampUsec === first.timestampUsec,
        `the same ${t.headerName("LEDGER-TIMESTAMPUSEC")} as an earlier answer at ${latestName(t)} ${version}: the chain's timestamp at that version (§2.7)`,
        later.res,
        `${later.timestampUsec} here, ${first.timestampUsec} in the earlier answer (${first.res.curl})`,
      );
    }
    return pairs.length === 0
      ? undecided(`no two answers at the same ${latestName(t)}, in order or sent at once: the ledger moved between every two`)
      : undefined;
  },
);

interface TimestampAnswer {
  readonly res: HttpResponse;
  readonly timestampUsec: bigint;
}

/**
 * The timestamp law's evidence: each answer that reports a ledger version an earlier answer reported,
 * beside the first answer at that version (what every later one there must agree with).
 */
function atOneVersion(
  answers: readonly { res: HttpResponse; s: LedgerState }[],
): { version: bigint; first: TimestampAnswer; later: TimestampAnswer }[] {
  const firstAt = new Map<bigint, TimestampAnswer>();
  const pairs: { version: bigint; first: TimestampAnswer; later: TimestampAnswer }[] = [];
  for (const { res, s } of answers) {
    if (s.ledgerVersion === undefined || s.timestampUsec === undefined) continue;
    const answer = { res, timestampUsec: s.timestampUsec };
    const first = firstAt.get(s.ledgerVersion);
    if (first === undefined) firstAt.set(s.ledgerVersion, answer);
    else pairs.push({ version: s.ledgerVersion, first, later: answer });
  }
  return pairs;
}

/**
 * The family's ledger info (aptos-core api/src/index.rs `get_ledger_info`: GET /v1 answers
 * {chain_id, epoch, ledger_version, oldest_ledger_version, ledger_timestamp, ...}) is what the node
 * reports of a version: its ledger_timestamp is that version's timestamp, which the header beside it,
 * at the same version, must repeat. The spec defines no such page: a node without it decides nothing.
 */
law(
  "2.7/timestamp-matches-ledger-info",
  { numRuns: 3 },
  async () => undefined,
  () => fc.constant(null),
  async (t) => {
    const res = await t.request({ path: "" });
    const info =
      res.status === 200 && typeof res.json === "object" && res.json !== null ? (res.json as Record<string, unknown>) : undefined;
    const bodyVersion = typeof info?.ledger_version === "string" ? info.ledger_version : undefined;
    const bodyTimestamp = typeof info?.ledger_timestamp === "string" ? info.ledger_timestamp : undefined;
    if (bodyVersion === undefined || bodyTimestamp === undefined || !/^[0-9]+$/.test(bodyVersion) || !/^[0-9]+$/.test(bodyTimestamp)) {
      return undecided(`GET ${t.config.target} answered ${res.status} without a ledger info {ledger_version, ledger_timestamp}`);
    }
    const s = t.ledgerState(res);
    if (s.ledgerVersion === undefined || s.ledgerVersion !== BigInt(bodyVersion)) {
      return undecided(`the ledger info's ledger_version ${bodyVersion} is not its ${latestName(t)} ${s.ledgerVersion ?? "(absent)"}`);
    }
    t.expect(
      s.timestampUsec === BigInt(bodyTimestamp),
      `${t.headerName("LEDGER-TIMESTAMPUSEC")} = the ledger info's ledger_timestamp at ${latestName(t)} ${bodyVersion} (§2.7 "Current chain timestamp")`,
      res,
      `${t.headerName("LEDGER-TIMESTAMPUSEC")} ${s.timestampUsec ?? "(absent)"}, ledger_timestamp ${bodyTimestamp}`,
    );
    return undefined;
  },
);
