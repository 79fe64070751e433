// `node test/self-check/variation-runs-command.mjs PLAN RESULTS` (this file behind tsx): the
// allowed-variations guard's runs (variation-runs.ts) in a process of their own, so that the vitest
// instance they make is not nested in the worker of the test that asks for them. PLAN is a JSON array
// of VariationRun; RESULTS receives the outcomes as JSON.

import { readFileSync, writeFileSync } from "node:fs";
import { runVariations, type VariationRun } from "./variation-runs.ts";

const [planFile, resultsFile] = process.argv.slice(2);
if (planFile === undefined || resultsFile === undefined) {
  process.stderr.write("usage: variation-runs-command.ts PLAN RESULTS\n");
  process.exit(2);
}
const plan = JSON.parse(readFileSync(planFile, "utf8")) as VariationRun[];
writeFileSync(resultsFile, JSON.stringify(await runVariations(plan)));
// Keep-alive sockets or a worker slow to stop must not keep the process alive once the results are written.
process.exit(0);
