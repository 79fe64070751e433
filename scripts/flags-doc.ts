// `npm run docs:flags`: writes what the flag table (src/cli/flags.ts) gives to files other readers need: the
// README's flag reference (between its flags markers) and the config file's JSON schema, which editors read
// (biome lays the schema out, as the rest of the tree). test/cli/flags-doc.test.ts fails when either differs.

import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CONFIG_SCHEMA_FILE, configFileSchema } from "../src/cli/config-schema.ts";
import { withFlagsBlock } from "../src/cli/flags-doc.ts";
import { isDeepStrictEqual } from "node:util";

const README = fileURLToPath(new URL("../README.md", import.meta.url));
const before = readFileSync(README, "utf8");
const after = withFlagsBlock(before);
if (after !== before) writeFileSync(README, after);
process.stdout.write(after === before ? "README.md: the flag reference is up to date\n" : "README.md: the flag reference written\n");

const SCHEMA = fileURLToPath(new URL(`../${CONFIG_SCHEMA_FILE}`, import.meta.url));
const schema = configFileSchema();
if (isDeepStrictEqual(JSON.parse(readFileSync(SCHEMA, "utf8")), schema)) {
  process.stdout.write(`${CONFIG_SCHEMA_FILE}: up to date\n`);
} else {
  writeFileSync(SCHEMA, `${JSON.stringify(schema, null, 2)}\n`);
  execFileSync(fileURLToPath(new URL("../node_modules/.bin/biome", import.meta.url)), ["format", "--write", SCHEMA], { stdio: "ignore" });
  process.stdout.write(`${CONFIG_SCHEMA_FILE}: written\n`);
}
