// A deterministic genesis from the seed: the framework at 0x1, funded accounts with known keys, a
// multisig account with approved proposals, tables, and a history in which the transactions account
// commits its transfers by really submitting signed transactions through the same path as any client,
// block after block, up to the clock's time.

import { formatAddress, parseAddress, toHex, type SignedTransaction, type StructResolver } from "../../../codec/index.ts";
import type { BlockProducer } from "../block-producer.ts";
import { GENESIS_TRANSFERS, type EngineConfig } from "../config.ts";
import type { Ledger } from "../ledger.ts";
import type { ModuleRecord } from "../api.ts";
import type { StateWrite } from "../state.ts";
import { TransferBot } from "../transfer-bot.ts";
import { moduleRecord, structLookup } from "./bytecode.ts";
import { FRAMEWORK_MODULES, GAS_SCHEDULE_UPGRADE, RANDOMNESS_MODULE } from "./framework.ts";
import { activeBlockAt, planHistory, transfersInBlock, type HistoryPlan } from "./history.ts";
import { genesisKeys, type GenesisKeys } from "./keys.ts";
import { genesisMultisig, type GenesisMultisig } from "./multisig.ts";
import { FIXTURE_KEY, FIXTURE_TABLE, genesisTables, tableItemWrite, typeFormTables, type GenesisTable } from "./tables.ts";

/** The fixtures object, with the fixtures file's member names exactly. */
export interface EngineFixtures {
  readonly chainId: number;
  readonly accounts: readonly { readonly address: string; readonly privateKey: string }[];
  readonly transactionsAccount: string;
  readonly moduleAccount: string;
  readonly moduleName: string;
  readonly table: { readonly handle: string; readonly keyType: string; readonly valueType: string; readonly key: unknown };
  /** More tables, whose key and value types use the other MoveType forms (§2.1), one present key each. */
  readonly tables: readonly { readonly handle: string; readonly keyType: string; readonly valueType: string; readonly key: unknown }[];
  /** Beyond the basic fixtures (`history`): known changes inside the window, so that a read at an older version can be told from a read at the latest. */
  /** A multisig account whose next proposals are approved and store their payloads, and the owner (an account of `accounts`) who may execute them. */
  readonly multisigAccount: { readonly address: string; readonly owner: string };
  readonly history: {
    readonly modulePublished: { readonly address: string; readonly name: string; readonly version: string };
    readonly tableItemInserted: {
      readonly handle: string;
      readonly keyType: string;
      readonly valueType: string;
      readonly key: unknown;
      readonly version: string;
    };
  };
}

export type TableChange = "insert" | "update" | "delete";

/** What genesis did, for the fixtures and for tests that check versioned reads. */
export interface GenesisReport {
  readonly keys: GenesisKeys;
  readonly tables: readonly GenesisTable[];
  /** Tables of the other MoveType forms (typeFormTables): written once, never changed. */
  readonly formTables: readonly GenesisTable[];
  readonly fixtures: EngineFixtures;
  readonly plan: HistoryPlan;
  /** Versions of the transactions account's committed transfers, ascending. */
  readonly transferVersions: readonly bigint[];
  /** The version that published 0x1::randomness (absent before it). */
  readonly randomnessPublishedAt: bigint;
  /** The version that upgraded 0x1::gas_schedule (one more function from it on). */
  readonly gasScheduleUpgradedAt: bigint;
  readonly tableChanges: readonly {
    readonly table: string;
    readonly key: unknown;
    readonly change: TableChange;
    readonly version: bigint;
  }[];
  /** Keeps the transactions account busy after genesis. */
  readonly bot: TransferBot;
}

export interface GenesisContext {
  readonly config: EngineConfig;
  readonly ledger: Ledger;
  readonly producer: BlockProducer;
  /** The submission path (signature check, prologue, mempool), without the API's enabled switch. */
  readonly submit: (signed: SignedTransaction) => void;
}

const OCTAS_PER_APT = 100_000_000n;
const FUNDED_BALANCE = 10_000n * OCTAS_PER_APT;
const TRANSACTIONS_BALANCE = 100_000_000n * OCTAS_PER_APT;
const FRAMEWORK = parseAddress("0x1");
/** How long the transactions account's transfers stay valid, beyond two block intervals. */
export const TRANSFER_TTL_SECONDS = 600n;

/** The framework's module records, compiled once per process (the declarations never change). */
let compiled: { framework: ModuleRecord[]; randomness: ModuleRecord; gasScheduleUpgrade: ModuleRecord } | undefined;
function frameworkRecords(): NonNullable<typeof compiled> {
  if (compiled === undefined) {
    const lookup = structLookup([...FRAMEWORK_MODULES, RANDOMNESS_MODULE, GAS_SCHEDULE_UPGRADE]);
    compiled = {
      framework: FRAMEWORK_MODULES.map((decl) => moduleRecord(decl, lookup)),
      randomness: moduleRecord(RANDOMNESS_MODULE, lookup),
      gasScheduleUpgrade: moduleRecord(GAS_SCHEDULE_UPGRADE, lookup),
    };
  }
  return compiled;
}

/** Resolves struct layouts from the framework's ABIs (before any of it is on the ledger). */
const frameworkResolver: StructResolver = (tag) => {
  if (formatAddress(tag.address) !== "0x1") return undefined;
  const struct = FRAMEWORK_MODULES.find((m) => m.name === tag.module)?.structs.find((s) => s.name === tag.name);
  return struct?.fields.map((f) => ({ name: f.name, type: f.type }));
};

function genesisWrites(keys: GenesisKeys, tables: readonly GenesisTable[], multisig: GenesisMultisig): StateWrite[] {
  const account = (address: Uint8Array, balance: bigint): StateWrite => ({
    kind: "account",
    address,
    value: { sequenceNumber: 0n, authenticationKey: new Uint8Array(address), balance },
  });
  return [
    account(FRAMEWORK, 0n),
    ...keys.funded.map((a) => account(a.address, FUNDED_BALANCE)),
    account(keys.transactions.address, TRANSACTIONS_BALANCE),
    account(keys.singleKeyEd25519.address, FUNDED_BALANCE),
    account(keys.singleKeySecp256k1.address, FUNDED_BALANCE),
    account(keys.multiEd25519.address, FUNDED_BALANCE),
    account(keys.multiKey.address, FUNDED_BALANCE),
    ...multisig.writes,
    ...frameworkRecords().framework.map(
      (record): StateWrite => ({ kind: "module", address: FRAMEWORK, name: record.abi.name, value: record }),
    ),
    ...tables.flatMap((table) => table.initial.map((item) => tableItemWrite(table, item.key, item.value, frameworkResolver))),
  ];
}

interface HistoryEvent {
  readonly at: number;
  readonly writes: readonly StateWrite[];
  readonly record: (version: bigint) => void;
}

export function runGenesis(context: GenesisContext): GenesisReport {
  const { config, ledger, producer } = context;
  const keys = genesisKeys(config.seed);
  const tables = genesisTables(config.seed);
  const formTables = typeFormTables(config.seed);
  const plan = planHistory(config.genesisVersions, config.pruneWindow, GENESIS_TRANSFERS);
  const interval = BigInt(config.blockIntervalMs) * 1000n;
  const totalBlocks = BigInt(1 + plan.emptyBlocks + plan.activeBlocks);
  const start = config.clock.nowUsec() - (totalBlocks - 1n) * interval;
  if (start <= 0n) throw new RangeError("the clock is too early for a genesis of this length");

  const multisig = genesisMultisig(keys, FUNDED_BALANCE);
  producer.produceGenesis(start, genesisWrites(keys, [...tables, ...formTables], multisig));
  producer.produceEmptyBlocks(plan.emptyBlocks, start + interval, interval);

  const report = {
    randomnessPublishedAt: -1n,
    gasScheduleUpgradedAt: -1n,
    tableChanges: [] as { table: string; key: unknown; change: TableChange; version: bigint }[],
  };
  const events: HistoryEvent[] = [
    {
      at: activeBlockAt(plan, 0.6),
      writes: [{ kind: "module", address: FRAMEWORK, name: RANDOMNESS_MODULE.name, value: frameworkRecords().randomness }],
      record: (version) => (report.randomnessPublishedAt = version),
    },
    {
      at: activeBlockAt(plan, 0.7),
      writes: [{ kind: "module", address: FRAMEWORK, name: GAS_SCHEDULE_UPGRADE.name, value: frameworkRecords().gasScheduleUpgrade }],
      record: (version) => (report.gasScheduleUpgradedAt = version),
    },
  ];
  const changes = tables.flatMap((table) => [
    ...table.late.map((item) => ({ table, key: item.key, value: item.value as unknown, change: "insert" as const })),
    ...table.updates.map((item) => ({ table, key: item.key, value: item.value as unknown, change: "update" as const })),
    ...table.deletes.map((key) => ({ table, key, value: undefined as unknown, change: "delete" as const })),
  ]);
  changes.forEach((c, i) =>
    events.push({
      // Spread over the second half of the active stretch.
      at: activeBlockAt(plan, 0.5 + (0.5 * i) / changes.length),
      writes: [tableItemWrite(c.table, c.key, c.value, frameworkResolver)],
      record: (version) => report.tableChanges.push({ table: c.table.name, key: c.key, change: c.change, version }),
    }),
  );

  const bot = new TransferBot(keys.transactions, keys.recipients, {
    chainId: config.chainId,
    domain: config.domain,
    gasUnitPrice: config.minGasUnitPrice,
    ttlSeconds: TRANSFER_TTL_SECONDS + 2n * (interval / 1_000_000n),
  });
  const transferVersions: bigint[] = [];
  const firstActive = BigInt(1 + plan.emptyBlocks);
  const timestampOf = (j: number) => start + (firstActive + BigInt(j)) * interval;
  // Most active blocks hold neither a transfer nor an event: each run of them is laid down in bulk, as
  // the quiet stretch is, with the same heights, versions and timestamps one produceBlock a block gives
  // (the mempool is empty between the transfers, each committed in its own block).
  let quietFrom = 0;
  for (let j = 0; j < plan.activeBlocks; j++) {
    const expected = transfersInBlock(plan, j);
    const due = events.filter((e) => e.at === j);
    if (expected === 0 && due.length === 0) continue;
    producer.produceEmptyBlocks(j - quietFrom, timestampOf(quietFrom), interval);
    quietFrom = j + 1;
    for (let k = 0; k < expected; k++) {
      const sequenceNumber = ledger.state.latestAccount(keys.transactions.address)?.sequenceNumber ?? 0n;
      context.submit(bot.next(sequenceNumber, ledger.nowSeconds));
    }
    const metadataVersion = ledger.latestVersion + 1n;
    const produced = producer.produceBlock(
      timestampOf(j),
      due.flatMap((e) => e.writes),
    );
    if (produced.committed.length !== expected)
      throw new Error(
        `genesis: block ${produced.block.height} committed ${produced.committed.length} of ${expected} transfers (${produced.discarded.map((d) => d.reason).join("; ")})`,
      );
    for (const txn of produced.committed) transferVersions.push(txn.version);
    for (const event of due) event.record(metadataVersion);
  }
  producer.produceEmptyBlocks(plan.activeBlocks - quietFrom, timestampOf(quietFrom), interval);

  const fixtureTable = tables.find((t) => t.name === FIXTURE_TABLE) as GenesisTable;
  const fixtures: EngineFixtures = {
    chainId: config.chainId,
    accounts: keys.funded.map((a) => ({ address: formatAddress(a.address), privateKey: toHex(a.privateKey) })),
    transactionsAccount: formatAddress(keys.transactions.address),
    moduleAccount: "0x1",
    moduleName: "coin",
    table: { handle: toHex(fixtureTable.handle), keyType: fixtureTable.keyType, valueType: fixtureTable.valueType, key: FIXTURE_KEY },
    tables: formTables.map((t) => ({ handle: toHex(t.handle), keyType: t.keyType, valueType: t.valueType, key: t.initial[0]?.key })),
    history: {
      modulePublished: { address: "0x1", name: RANDOMNESS_MODULE.name, version: report.randomnessPublishedAt.toString() },
      tableItemInserted: insertedFixtureItem(tables, report.tableChanges),
    },
    multisigAccount: { address: formatAddress(multisig.address), owner: formatAddress(multisig.owner) },
  };
  return { keys, tables, formTables, fixtures, plan, transferVersions, ...report, bot };
}

/** A late insert into the fixture table that nothing changes afterwards: absent before its version, present from it on. */
function insertedFixtureItem(
  tables: readonly GenesisTable[],
  changes: GenesisReport["tableChanges"],
): EngineFixtures["history"]["tableItemInserted"] {
  const table = tables.find((t) => t.name === FIXTURE_TABLE) as GenesisTable;
  const mine = changes.filter((c) => c.table === FIXTURE_TABLE);
  const insert = mine.find((c) => c.change === "insert" && mine.filter((o) => o.key === c.key).length === 1);
  if (insert === undefined) throw new Error(`genesis: no late insert into ${FIXTURE_TABLE}`);
  return {
    handle: toHex(table.handle),
    keyType: table.keyType,
    valueType: table.valueType,
    key: insert.key,
    version: insert.version.toString(),
  };
}
