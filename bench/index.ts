// `npm run bench [-- PART... options]`: runs the benchmark parts and prints their figures. Nothing is
// asserted: machines differ, so the figures are for reading, next to the machine line printed first.
// A part is a list of sections; naming a part runs all of its sections, naming a section runs it alone.

import { runFleet } from "./fleet.ts";
import { runConformanceRuns } from "./conformance-run.ts";
import { runGatewayRun } from "./gateway-run.ts";
import { runLoadMode } from "./load-mode.ts";
import { loadDescription, machineDescription } from "./format.ts";
import { runNodeReadScaling } from "./node-read-scaling.ts";
import { runNodeStartup } from "./node-startup.ts";
import { runNodeThroughput } from "./node-throughput.ts";
import { parseCommandLine, USAGE, UsageError, type BenchOptions } from "./options.ts";
import { runSelfCheck } from "./self-check.ts";
import { runTestWall } from "./test-wall.ts";

type Section = (options: BenchOptions) => Promise<void>;

const SECTIONS: Readonly<Record<string, Section>> = {
  "node-throughput": runNodeThroughput,
  "node-startup": runNodeStartup,
  "node-read-scaling": runNodeReadScaling,
  "self-check": runSelfCheck,
  fleet: runFleet,
  "conformance-run": runConformanceRuns,
  "gateway-run": runGatewayRun,
  "load-mode": runLoadMode,
  "test-wall": runTestWall,
};

/** In the order `npm run bench` runs them. */
const PARTS: Readonly<Record<string, readonly string[]>> = {
  node: ["node-throughput", "node-startup", "node-read-scaling"],
  "self-check": ["self-check"],
  fleet: ["fleet"],
  conformance: ["conformance-run", "gateway-run"],
  load: ["load-mode"],
  tests: ["test-wall"],
};

/** The sections the named parts or sections stand for, each once, in order; every part when none is named. */
function sectionsFor(names: readonly string[]): string[] {
  const wanted = names.length === 0 ? Object.keys(PARTS) : names;
  const sections: string[] = [];
  for (const name of wanted) {
    const expanded = PARTS[name] ?? (name in SECTIONS ? [name] : undefined);
    if (expanded === undefined)
      throw new UsageError(
        `unknown part '${name}' (parts: ${Object.keys(PARTS).join(", ")}; sections: ${Object.keys(SECTIONS).join(", ")})`,
      );
    for (const section of expanded) if (!sections.includes(section)) sections.push(section);
  }
  return sections;
}

async function main(): Promise<number> {
  let sections: string[];
  let options: BenchOptions;
  try {
    const command = parseCommandLine(process.argv.slice(2));
    if (command.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    sections = sectionsFor(command.parts);
    options = command.options;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`bench: ${error.message}\n${USAGE}\n`);
    return 2;
  }

  const started = performance.now();
  process.stdout.write(`${machineDescription()}\n${loadDescription()} at start\nsections: ${sections.join(", ")}\n`);
  for (const name of sections) await (SECTIONS[name] as Section)(options);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(`\nbench finished in ${seconds} s; ${loadDescription()} at the end\n`);
  return 0;
}

process.exitCode = await main();
