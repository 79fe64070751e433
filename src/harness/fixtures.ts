// The fixtures file (docs/fixtures.md): JSON, every member optional, exact member names. A check that needs
// a missing member is reported not_applicable naming the member, never passed.

import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { ConfigurationError } from "./configuration-error.ts";

export interface FixtureAccount {
  readonly address: string;
  /** Never printed, never written to a report. */
  readonly privateKey: string;
}

export interface TableFixture {
  readonly handle: string;
  readonly keyType: string;
  readonly valueType: string;
  /** JSON value of a key present at the latest version (a string, e.g. "7"). */
  readonly key: unknown;
}

/** A versioned change the node made inside its window (the `history` extension; every member optional). */
export interface HistoryFixture {
  /** A module absent at version - 1 and present at version. */
  readonly modulePublished?: { readonly address: string; readonly name: string; readonly version: string };
  /** A table item absent at version - 1 and present at version. */
  readonly tableItemInserted?: TableFixture & { readonly version: string };
}

/** A multisig account whose next proposal is approved and stores its payload, and an owner of it among `accounts`. */
export interface MultisigAccountFixture {
  readonly address: string;
  readonly owner: string;
}

export interface Fixtures {
  readonly chainId?: number;
  readonly accounts?: readonly FixtureAccount[];
  readonly transactionsAccount?: string;
  readonly moduleAccount?: string;
  readonly moduleName?: string;
  readonly table?: TableFixture;
  /** More tables, each with a key present, whose key and value types send the other MoveType forms (§2.1). */
  readonly tables?: readonly TableFixture[];
  readonly history?: HistoryFixture;
  readonly multisigAccount?: MultisigAccountFixture;
}

export type FixtureName = keyof Fixtures;

const hexString = { type: "string", pattern: "^0x[0-9a-fA-F]+$" } as const;
const u64String = { type: "string", pattern: "^(0|[1-9][0-9]{0,19})$" } as const;

const tableSchema = {
  type: "object",
  required: ["handle", "keyType", "valueType", "key"],
  properties: {
    handle: hexString,
    keyType: { type: "string", minLength: 1 },
    valueType: { type: "string", minLength: 1 },
  },
} as const;

/** A table item with the version that inserted it. */
const insertedItemSchema = {
  ...tableSchema,
  required: [...tableSchema.required, "version"],
  properties: { ...tableSchema.properties, version: u64String },
} as const;

export const FIXTURES_SCHEMA = {
  type: "object",
  additionalProperties: true,
  properties: {
    chainId: { type: "integer", minimum: 0, maximum: 255 },
    accounts: {
      type: "array",
      items: {
        type: "object",
        required: ["address", "privateKey"],
        properties: { address: hexString, privateKey: hexString },
      },
    },
    transactionsAccount: hexString,
    moduleAccount: hexString,
    moduleName: { type: "string", minLength: 1 },
    table: tableSchema,
    tables: { type: "array", items: tableSchema },
    multisigAccount: {
      type: "object",
      required: ["address", "owner"],
      properties: { address: hexString, owner: hexString },
    },
    history: {
      type: "object",
      properties: {
        modulePublished: {
          type: "object",
          required: ["address", "name", "version"],
          properties: { address: hexString, name: { type: "string", minLength: 1 }, version: u64String },
        },
        tableItemInserted: insertedItemSchema,
      },
    },
  },
} as const;

// The schema is this file's constant: checked against the meta-schema once, by
// test/harness/schema-constants.test.ts, rather than at every start of every worker.
const validateFixtures = new Ajv({ allErrors: true, validateSchema: false }).compile(FIXTURES_SCHEMA);

export class FixturesError extends ConfigurationError {
  override readonly name = "FixturesError";
}

/** Checks a parsed fixtures object; throws FixturesError naming every problem. */
export function parseFixtures(value: unknown, source = "fixtures"): Fixtures {
  if (!validateFixtures(value)) {
    const problems = (validateFixtures.errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}`).join("; ");
    throw new FixturesError(`${source}: ${problems}`);
  }
  return value as Fixtures;
}

export function loadFixturesFile(path: string): Fixtures {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new FixturesError(`cannot read fixtures file ${path}: ${(e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new FixturesError(`fixtures file ${path} is not JSON: ${(e as Error).message}`);
  }
  return parseFixtures(json, path);
}

/**
 * Submitting accounts may also come from the environment (LEDGER_CONFORMANCE_ACCOUNTS, a JSON array of
 * {address, privateKey}) so CI keeps keys out of files; they replace the file's `accounts`.
 */
export function accountsFromEnvironment(value: string | undefined): FixtureAccount[] | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw new FixturesError("LEDGER_CONFORMANCE_ACCOUNTS is not JSON (expected [{address, privateKey}])");
  }
  return parseFixtures({ accounts: json }, "LEDGER_CONFORMANCE_ACCOUNTS").accounts as FixtureAccount[];
}
