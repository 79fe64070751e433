// The setup file of a run whose workers start before its target has answered (target-handoff.ts):
// before a file's checks run, the worker has the target's facts. The wait is a hook's, under the run's
// hook timeout, and not a check's: a slow start of the node, or a slow probe, is never a check's failure.

import { beforeAll } from "vitest";
import { awaitTarget } from "./harness.ts";

beforeAll(awaitTarget);
