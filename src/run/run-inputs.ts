// What a run reads before anything starts, for a one-node run and a fleet alike: the requirement
// catalog, the suite files and the selection the options make among them, and the baseline. A problem with
// any of them is a configuration error (exit 2) before a node is touched.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseBaselineEntries } from "../outcome/baseline-list.ts";
import type { RunOptions } from "./run-plan.ts";
import { ConfigurationError } from "../harness/configuration-error.ts";
import { ApiContract } from "../harness/openapi.ts";
import { loadRequirementAliases, type RequirementAliases } from "../harness/requirement-aliases.ts";
import { loadRequirements, type RequirementCatalog } from "../harness/requirements.ts";
import { filesToLoad, type CheckSelection } from "../harness/selection.ts";
import { CODE_ROOT, SUITE_FILE_SUFFIX } from "../package-root.ts";
import { selectionOf, untestedReasonOf } from "./selection.ts";
import type { Baseline } from "./settle.ts";
import { preloadSuiteRunner } from "./vitest-run.ts";

/** The laws under load (their requirements have `mode: load`): loaded by a run with --load only. */
export const LOAD_MODE_FILE = `properties/under-load${SUITE_FILE_SUFFIX}`;

export interface RunInputs {
  readonly catalog: RequirementCatalog;
  /** The operationIds of schemas/openapi.yaml, in its order. */
  readonly operations: readonly string[];
  readonly selection: CheckSelection;
  /** Every suite and property file, relative to the code root. */
  readonly allFiles: readonly string[];
  /** The files the selection loads. */
  readonly files: readonly string[];
  /** Suite files of a mode the run did not ask for (the laws under load without --load): never loaded. */
  readonly excluded: readonly string[];
  /** Why requirements nothing exercised were not run, when the selection left them out. */
  readonly untestedReason?: string;
  readonly baseline?: Baseline;
  /** LEDGER_CONFORMANCE_ALLURE=off: no Allure page. */
  readonly allureOff: boolean;
}

/** Reads the run's inputs; the suite runner starts loading meanwhile. */
export function prepareRun(args: RunOptions): RunInputs {
  // LEDGER_CONFORMANCE_ALLURE=off skips the Allure sub-report, the costliest of the reports (its results
  // written as files end, then the page made from them), for runs whose Allure page no one opens: most
  // of the tests', a CI gate's.
  const allureOff = process.env.LEDGER_CONFORMANCE_ALLURE === "off";
  // A run without a target: its reference node is starting on its own thread (the entry started it),
  // and the suite runner and the catalog load meanwhile.
  preloadSuiteRunner({ allure: !allureOff });
  // The laws under load are a mode: a run without --load neither loads their file nor reports on them.
  const { catalog: fullCatalog, operations } = loadCatalog();
  const catalog = args.load === undefined ? fullCatalog.without("load") : fullCatalog;
  const aliases = loadRequirementAliases();
  const excluded = args.load === undefined ? [LOAD_MODE_FILE] : [];
  const allFiles = suiteFiles().filter((file) => !excluded.includes(file));
  const selection = selectionOf(args, allFiles, aliases);
  const baseline = args.baseline === undefined ? undefined : readBaseline(args.baseline, aliases);
  const files = filesToLoad(selection, allFiles);
  const untestedReason = untestedReasonOf(selection);
  return {
    catalog,
    operations,
    selection,
    allFiles,
    files,
    excluded,
    ...(untestedReason === undefined ? {} : { untestedReason }),
    ...(baseline === undefined ? {} : { baseline }),
    allureOff,
  };
}

function loadCatalog(): { readonly catalog: RequirementCatalog; readonly operations: readonly string[] } {
  let contract: ApiContract;
  try {
    contract = ApiContract.load();
  } catch (e) {
    throw new ConfigurationError(`cannot load schemas/openapi.yaml: ${(e as Error).message}`);
  }
  const operations = contract.operations.map((o) => o.id);
  return { catalog: loadRequirements(operations), operations };
}

function readBaseline(file: string, aliases: RequirementAliases): Baseline {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new ConfigurationError(`cannot read baseline ${file}: ${(e as Error).message}`);
  }
  return { file, entries: parseBaselineEntries(text, file, aliases) };
}

/** Every suite and property file, relative to the root. */
function suiteFiles(): string[] {
  const files: string[] = [];
  for (const dir of ["suites", "properties"]) {
    const abs = join(CODE_ROOT, dir);
    if (!existsSync(abs)) continue;
    for (const entry of readdirSync(abs, { recursive: true })) {
      const rel = `${dir}/${String(entry)}`;
      if (rel.endsWith(SUITE_FILE_SUFFIX)) files.push(rel);
    }
  }
  return files;
}
