// Faults in module records: an ABI out of step with the bytecode beside it, as an ABI cache not
// refreshed after an upgrade would serve. Both module endpoints read through the engine, so they
// agree with each other and only the bytecode shows the ABI wrong.

import type { ModuleRecord } from "../ledger/api.ts";
import { overrideApi, type Fault } from "./fault.ts";

/** The record with its ABI's last exposed function left out (unchanged when it exposes none). */
function withoutLastFunction(record: ModuleRecord): ModuleRecord {
  const functions = record.abi.exposed_functions;
  if (functions.length === 0) return record;
  return { bytecode: record.bytecode, abi: { ...record.abi, exposed_functions: functions.slice(0, -1) } };
}

const abiOmitsFunction: Fault = {
  name: "abi-omits-function",
  area: "modules",
  description:
    "serves each module's ABI without its last exposed function, on both module endpoints (an ABI cache out of step with the bytecode)",
  breaks: ["4.4/abi-matches-bytecode", "4.5/abi-matches-bytecode"],
  engine: (api) =>
    overrideApi(api, {
      getModule: (address, name, version) => withoutLastFunction(api.getModule(address, name, version)),
      listModules: (address, options) => {
        const page = api.listModules(address, options);
        return { ...page, modules: page.modules.map(withoutLastFunction) };
      },
    }),
};

export const MODULE_FAULTS: readonly Fault[] = [abiOmitsFunction];
