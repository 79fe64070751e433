// Real module bytecodes recorded from aptos-core (its API goldens, api/goldens/: the bytecode and the
// ABI the real node derived from it, served side by side), each file naming its source path and
// commit. Every one decodes with the codec's reader, and the ABI the codec derives equals the recorded
// one in every member the recording holds (older recordings predate is_entry, is_view and is_event).
// The suite's comparison (suites/support/module-abi.ts) finds no difference in them, and finds the
// deviations a node could ship when the recorded ABI is altered.

import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { abiOfBytecode, deserializeModule, fromHex } from "../../src/codec/index.ts";
import { bytecodeAbi, firstAbiDifference } from "../../suites/support/module-abi.ts";

const DIR = new URL("./move-modules/", import.meta.url);

interface RecordedModule {
  readonly source: { readonly repo: string; readonly path: string; readonly commit: string };
  readonly recordedBy: string;
  readonly note: string;
  readonly bytecode: string;
  readonly abi: Record<string, unknown>;
}

const modules = readdirSync(DIR)
  .filter((name) => name.endsWith(".json"))
  .sort()
  .map((name) => ({ name, recorded: JSON.parse(readFileSync(new URL(name, DIR), "utf8")) as RecordedModule }));

/** `value` cut down to the members `shape` holds, recursively (arrays element by element). */
function project(value: unknown, shape: unknown): unknown {
  if (Array.isArray(shape) && Array.isArray(value)) return value.map((v, i) => project(v, shape[i] ?? shape[0]));
  if (shape !== null && typeof shape === "object" && value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(shape).map((key) => [key, project((value as Record<string, unknown>)[key], (shape as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

type Abi = { exposed_functions: Record<string, unknown>[]; structs: Record<string, unknown>[] };
const altered = (abi: Record<string, unknown>, change: (copy: Abi) => void): Record<string, unknown> => {
  const copy = structuredClone(abi) as unknown as Abi;
  change(copy);
  return copy as unknown as Record<string, unknown>;
};

it("holds recordings, each naming its source", () => {
  expect(modules.length).toBeGreaterThanOrEqual(4);
  for (const { recorded } of modules) {
    expect(recorded.source.repo).toBe("aptos-labs/aptos-core");
    expect(recorded.source.path).toMatch(/^api\/goldens\//);
    expect(recorded.source.commit).toMatch(/^[0-9a-f]{40}$/);
  }
});

describe.each(modules)("$name", ({ recorded }) => {
  it("decodes as a Move module", () => {
    const module = deserializeModule(fromHex(recorded.bytecode));
    expect(module.version).toBeGreaterThanOrEqual(5);
    expect(module.functionDefs.length).toBeGreaterThan(0);
  });

  it("derives the ABI the real node served", () => {
    const derived = abiOfBytecode(fromHex(recorded.bytecode));
    expect(project(derived, recorded.abi)).toEqual(recorded.abi);
    expect(firstAbiDifference(bytecodeAbi(fromHex(recorded.bytecode)), recorded.abi)).toBeUndefined();
  });

  it("tells a served ABI that leaves a function out, misstates a type, or invents a function", () => {
    const derived = bytecodeAbi(fromHex(recorded.bytecode));
    const [first] = derived.abi.exposed_functions;
    if (first === undefined) throw new Error("a recording with no exposed function");
    expect(
      firstAbiDifference(
        derived,
        altered(recorded.abi, (a) => a.exposed_functions.shift()),
      ),
    ).toMatch(new RegExp(`^function ${first.name}: exposed in the bytecode`));
    expect(
      firstAbiDifference(
        derived,
        altered(recorded.abi, (a) =>
          a.exposed_functions.push({ name: "invented", visibility: "public", generic_type_params: [], params: [], return: [] }),
        ),
      ),
    ).toMatch(/^function invented: in the ABI's exposed_functions/);
    expect(
      firstAbiDifference(
        derived,
        altered(recorded.abi, (a) => void ((a.exposed_functions[0] as { return: string[] }).return = ["u128"])),
      ),
    ).toMatch(new RegExp(`^function ${first.name}: return`));
    const other = first.visibility === "public" ? "friend" : "public";
    expect(
      firstAbiDifference(
        derived,
        altered(recorded.abi, (a) => void ((a.exposed_functions[0] as { visibility: string }).visibility = other)),
      ),
    ).toBe(`function ${first.name}: visibility: the bytecode has "${first.visibility}", the ABI has "${other}"`);
  });

  it("tells a served ABI that lists a function or a struct twice, even when both copies are right", () => {
    const derived = bytecodeAbi(fromHex(recorded.bytecode));
    const [first] = derived.abi.exposed_functions;
    if (first === undefined) throw new Error("a recording with no exposed function");
    expect(
      firstAbiDifference(
        derived,
        altered(recorded.abi, (a) => void a.exposed_functions.push(structuredClone(a.exposed_functions[0] as Record<string, unknown>))),
      ),
    ).toBe(`function ${first.name}: listed 2 times in the ABI, the bytecode defines it once`);
    const [struct] = derived.abi.structs;
    if (struct === undefined) return;
    expect(
      firstAbiDifference(
        derived,
        altered(recorded.abi, (a) => void a.structs.unshift(structuredClone(a.structs[0] as Record<string, unknown>))),
      ),
    ).toBe(`struct ${struct.name}: listed 2 times in the ABI, the bytecode defines it once`);
  });

  it("judges is_enum and variants when the ABI sends them, as aptos-core's MoveStruct does", () => {
    const derived = bytecodeAbi(fromHex(recorded.bytecode));
    const [struct] = derived.abi.structs;
    if (struct === undefined) return;
    const withEnumMembers = altered(recorded.abi, (a) => {
      for (const s of a.structs) Object.assign(s, { is_enum: false, variants: [] });
    });
    expect(firstAbiDifference(derived, withEnumMembers)).toBeUndefined();
    expect(
      firstAbiDifference(
        derived,
        altered(withEnumMembers, (a) => void ((a.structs[0] as { is_enum: boolean }).is_enum = true)),
      ),
    ).toBe(`struct ${struct.name}: is_enum: the bytecode has false, the ABI has true`);
    expect(
      firstAbiDifference(
        derived,
        altered(withEnumMembers, (a) => void ((a.structs[0] as { variants: unknown[] }).variants = [{ name: "V", fields: [] }])),
      ),
    ).toMatch(new RegExp(`^struct ${struct.name}: variants: the bytecode has 0`));
  });
});
