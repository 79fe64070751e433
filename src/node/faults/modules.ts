// Faults in module records: an ABI out of step with the bytecode beside it, as an ABI cache not
// refreshed after an upgrade would serve, or an ABI writer that repeats or misreads what it walks. Both
// module endpoints read through the engine (or are rewritten alike), so they agree with each other and
// only the bytecode shows the ABI wrong.

import type { LedgerApi, ModuleRecord } from "../ledger/api.ts";
import { overrideApi, rewriteJsonSuccess, type Fault } from "./fault.ts";

/** The record with its ABI's last public function left out (unchanged when it has none). */
function withoutLastPublicFunction(record: ModuleRecord): ModuleRecord {
  const functions = record.abi.exposed_functions;
  const last = functions.findLastIndex((f) => f.visibility === "public");
  if (last < 0) return record;
  return { bytecode: record.bytecode, abi: { ...record.abi, exposed_functions: functions.filter((_, i) => i !== last) } };
}

/** An engine whose module records, on both module endpoints, pass through `change`. */
function changingRecords(change: (record: ModuleRecord) => ModuleRecord) {
  return (api: LedgerApi): LedgerApi =>
    overrideApi(api, {
      getModule: (address, name, version) => change(api.getModule(address, name, version)),
      listModules: (address, options) => {
        const page = api.listModules(address, options);
        return { ...page, modules: page.modules.map(change) };
      },
    });
}

const abiOmitsFunction: Fault = {
  name: "abi-omits-function",
  area: "modules",
  description:
    "serves each module's ABI without its last public function, on both module endpoints (an ABI cache out of step with the bytecode)",
  breaks: ["4.4/abi-matches-bytecode", "4.5/abi-matches-bytecode"],
  engine: changingRecords(withoutLastPublicFunction),
};

/** The record with its ABI's first exposed function listed a second time, at the end (unchanged when it exposes none). */
function withFirstFunctionTwice(record: ModuleRecord): ModuleRecord {
  const [first] = record.abi.exposed_functions;
  if (first === undefined) return record;
  return { bytecode: record.bytecode, abi: { ...record.abi, exposed_functions: [...record.abi.exposed_functions, first] } };
}

const abiFunctionListedTwice: Fault = {
  name: "abi-function-listed-twice",
  area: "modules",
  description:
    "lists each module's first exposed function twice in its ABI, on both module endpoints (an ABI writer that walks the function table and the entry list both)",
  breaks: ["4.4/abi-matches-bytecode", "4.5/abi-matches-bytecode"],
  engine: changingRecords(withFirstFunctionTwice),
};

const MODULE_ROUTES = ["/v1/accounts/:address/module/:module_name", "/v1/accounts/:address/modules"];

/** A served module record (JSON) with is_enum true on the first struct not already marked an enum. */
function withStructMarkedEnum(record: unknown): unknown {
  const structs = (record as { abi?: { structs?: unknown } } | null)?.abi?.structs;
  if (!Array.isArray(structs)) return record;
  const plain = structs.find((s) => typeof s === "object" && s !== null && (s as { is_enum?: unknown }).is_enum !== true);
  if (plain !== undefined) (plain as { is_enum: boolean }).is_enum = true;
  return record;
}

const abiStructMarkedEnum: Fault = {
  name: "abi-struct-marked-enum",
  area: "modules",
  description:
    "sends is_enum true on the first plain struct of each module's JSON ABI, on both module endpoints (the enum flag read from the wrong definition kind)",
  breaks: ["4.4/abi-matches-bytecode", "4.5/abi-matches-bytecode"],
  http: (app) => {
    app.addHook(
      "onSend",
      rewriteJsonSuccess(MODULE_ROUTES, (body) => (Array.isArray(body) ? body.map(withStructMarkedEnum) : withStructMarkedEnum(body))),
    );
  },
};

export const MODULE_FAULTS: readonly Fault[] = [abiOmitsFunction, abiFunctionListedTwice, abiStructMarkedEnum];
