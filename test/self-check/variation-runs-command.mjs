// `node test/self-check/variation-runs-command.mjs PLAN RESULTS`: variation-runs-command.ts through tsx,
// with vitest's Node API loaded first, as bin/ledger-conformance.mjs loads the command.
import { runTypeScript } from "../../bin/run-package-entry.mjs";
await runTypeScript(new URL("./variation-runs-command.ts", import.meta.url), { loadFirst: ["vitest/node"] });
