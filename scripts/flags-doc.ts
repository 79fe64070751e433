// `npm run docs:flags`: writes the README's flag reference (between its flags markers) from the flag
// table, src/cli/flags.ts. test/cli/flags-doc.test.ts fails when the README's block differs.

import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { withFlagsBlock } from "../src/cli/flags-doc.ts";

const README = fileURLToPath(new URL("../README.md", import.meta.url));
const before = readFileSync(README, "utf8");
const after = withFlagsBlock(before);
if (after !== before) writeFileSync(README, after);
process.stdout.write(after === before ? "README.md: the flag reference is up to date\n" : "README.md: the flag reference written\n");
