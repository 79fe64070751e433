// The run's plan from its flags (args.ts): the nodes they name (none: the embedded reference node;
// --target repeated or --targets FILE: a fleet), the options every node's checks get, where the reports
// go, and the inputs read before anything starts. The engine (src/run/engine.ts) takes the plan alone.

import { readTargetsFile, targetsFromUrls } from "../fleet/targets.ts";
import { prepareRun } from "../run/run-inputs.ts";
import type { FleetNodePlan, NodePlan, RunPlan, RunTargets } from "../run/run-plan.ts";
import type { ConformanceArgs } from "./args.ts";

export function runPlanOf(args: ConformanceArgs): RunPlan {
  const {
    target,
    fleet,
    targetsFile,
    fixtures,
    profile,
    reportDir,
    configFile: _configFile,
    quiet,
    writeBaseline,
    format,
    junitPerCheck,
    ...options
  } = args;
  return {
    targets: targetsOf(args),
    options,
    reports: {
      dir: reportDir,
      ...(format === undefined ? {} : { format }),
      junitPerCheck: junitPerCheck === true,
      ...(writeBaseline === undefined ? {} : { writeBaseline }),
      quiet,
    },
    inputs: prepareRun(options),
  };
}

/** One node (the --target, or the embedded node), or the fleet of --targets FILE or --target repeated: each node's own fixtures and profile, else the flags'. */
function targetsOf(args: ConformanceArgs): RunTargets {
  const shared = { profile: args.profile, ...(args.fixtures === undefined ? {} : { fixtures: args.fixtures }) };
  const fleet =
    args.targetsFile !== undefined ? readTargetsFile(args.targetsFile) : args.fleet === undefined ? undefined : targetsFromUrls(args.fleet);
  if (fleet === undefined) {
    const one: NodePlan = { ...shared, ...(args.target === undefined ? {} : { target: args.target }) };
    return { one };
  }
  return {
    fleet: fleet.map(
      (node): FleetNodePlan => ({
        name: node.name,
        target: node.url,
        profile: node.profile ?? args.profile,
        ...((node.fixtures ?? args.fixtures) === undefined ? {} : { fixtures: (node.fixtures ?? args.fixtures) as string }),
      }),
    ),
  };
}
