// The framework genesis publishes is real Move bytecode: every module record's bytes read as a
// version 7 module with the codec's reader, write back byte for byte, and the ABI served beside them is
// the one derived from them (what the suite's 4.4/4.5 abi-matches-bytecode checks hold a node to). The
// declarations' #[view] and #[event] marks travel in the aptos::metadata_v1 attributes, and a private
// function that is not entry stays out of the ABI while a private entry function is in it.

import { beforeAll, describe, expect, it } from "vitest";
import { abiOfBytecode, deserializeModule, parseAddress, serializeModule } from "../../../src/codec/index.ts";
import type { ModuleRecord } from "../../../src/node/ledger/api.ts";
import { FRAMEWORK_MODULES } from "../../../src/node/ledger/genesis/framework.ts";
import { bytecodeAbi, firstAbiDifference } from "../../../suites/support/module-abi.ts";
import { testEngine, type TestEngine } from "./helpers.ts";

const FRAMEWORK = parseAddress("0x1");
let t: TestEngine;
let records: readonly ModuleRecord[];

beforeAll(() => {
  t = testEngine();
  records = t.engine.listModules(FRAMEWORK, { limit: 9999 }).modules;
});

describe("the framework's module records", () => {
  it("are one per declared module, and more after the history publishes randomness", () => {
    expect(records.length).toBeGreaterThanOrEqual(FRAMEWORK_MODULES.length);
  });

  it("hold version 7 modules that read and write back byte for byte", () => {
    for (const record of records) {
      const module = deserializeModule(record.bytecode);
      expect(module.version).toBe(7);
      expect(serializeModule(module)).toEqual(record.bytecode);
    }
  });

  it("serve the ABI derived from their bytecode", () => {
    for (const record of records) {
      const derived = abiOfBytecode(record.bytecode);
      expect(record.abi).toEqual(derived);
      expect(firstAbiDifference(bytecodeAbi(record.bytecode), JSON.parse(JSON.stringify(record.abi)))).toBeUndefined();
    }
  });

  it("carry the declarations: view and event marks, exposure by visibility and entry", () => {
    const abi = (name: string) => records.find((r) => r.abi.name === name)?.abi;
    const coin = abi("coin");
    expect(coin?.exposed_functions.find((f) => f.name === "balance")).toMatchObject({ is_view: true, visibility: "public" });
    expect(coin?.exposed_functions.map((f) => f.name)).not.toContain("maybe_convert_to_fungible_store");
    expect(abi("account")?.exposed_functions.map((f) => f.name)).not.toContain("create_account_unchecked");
    expect(coin?.structs.find((s) => s.name === "CoinDeposit")?.is_event).toBe(true);
    expect(coin?.structs.find((s) => s.name === "CoinStore")?.is_event).toBe(false);
    const privateEntries = records.flatMap((r) => r.abi.exposed_functions).filter((f) => f.visibility === "private");
    expect(privateEntries.length).toBeGreaterThan(0);
    expect(privateEntries.every((f) => f.is_entry)).toBe(true);
  });
});
