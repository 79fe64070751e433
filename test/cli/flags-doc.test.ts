// The flag table (src/cli/flags.ts) is the one source of every command's --help, of the README's flag
// reference and of the config file's schema: the README's block and the committed schema are what
// `npm run docs:flags` writes, every flag of a command is in its usage, a default a description names is
// one the table gives, and every run flag says how its value is read.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { flagsMarkdown, FLAGS_BEGIN, FLAGS_END, withFlagsBlock } from "../../src/cli/flags-doc.ts";
import { CONFIG_SCHEMA_FILE, configFileSchema } from "../../src/cli/config-schema.ts";
import { COMMANDS, FLAGS, flagsOf } from "../../src/cli/flags.ts";
import { flagSignature, usageOf } from "../../src/cli/usage.ts";

const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

describe("the README's flag reference", () => {
  it("is what npm run docs:flags writes from the flag table", () => {
    expect(README).toContain(FLAGS_BEGIN);
    expect(README).toContain(FLAGS_END);
    expect(README, "README.md's flags block is stale: run npm run docs:flags").toBe(withFlagsBlock(README));
  });

  it("has a row for every flag of a run", () => {
    const table = flagsMarkdown();
    for (const flag of flagsOf("run")) expect(table).toContain(`| \`${flagSignature(flag).replaceAll("|", "\\|")}\` |`);
  });
});

describe("the config file's committed schema", () => {
  it("is what npm run docs:flags writes from the flag table", () => {
    const committed = JSON.parse(readFileSync(new URL(`../../${CONFIG_SCHEMA_FILE}`, import.meta.url), "utf8"));
    expect(committed, `${CONFIG_SCHEMA_FILE} is stale: run npm run docs:flags`).toEqual(configFileSchema());
  });
});

describe("the run's rows", () => {
  it("each say how the value is read, a switch exactly when the flag takes no value", () => {
    for (const flag of flagsOf("run")) {
      expect(flag.kind, `--${flag.name}`).toBeDefined();
      expect(flag.kind === "switch", `--${flag.name}`).toBe(flag.value === undefined);
      expect(["urls", "patterns", "texts"].includes(flag.kind as string), `--${flag.name}`).toBe(flag.repeatable === true);
    }
  });
});

describe("the usage of every command", () => {
  it.each(COMMANDS)("%s lists each of its flags with its description", (command) => {
    const usage = usageOf(command);
    for (const flag of flagsOf(command)) {
      expect(usage, `--${flag.name}`).toMatch(new RegExp(`^  ${flagSignature(flag).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} +\\S`, "m"));
      for (const line of flag.description) expect(usage).toContain(line.replaceAll("{default}", flag.default ?? ""));
    }
  });

  it("gives every default a description names", () => {
    for (const flag of FLAGS.filter((f) => f.description.some((line) => line.includes("{default}"))))
      expect(flag.default, `--${flag.name} (${flag.commands.join(", ")})`).toBeDefined();
  });

  it("names each flag once per command", () => {
    for (const command of COMMANDS) {
      const names = flagsOf(command).map((f) => f.name);
      expect(new Set(names).size, command).toBe(names.length);
    }
  });
});
