// A run's flag values, read by each row's kind (the flag table, flags.ts): their types are derived from the
// table's rows, and one loop over the rows parses them. Rules between flags (--path needs --seed…) are the
// run's parse's own (args.ts). Any bad value is a UsageError: the command prints it with the usage, exit 2.

import { checkTargetUrl, UsageError } from "../harness/usage-error.ts";
import { type Flag, type FlagRowOf, flagOf, flagsOf } from "./flags.ts";

type RunRow = FlagRowOf<"run">;

/** The value as parseArgs gives it: a repeatable flag's values as a list, a switch as true. */
type InputOf<R> = R extends { readonly kind: "switch" } ? boolean : R extends { readonly repeatable: true } ? string[] : string;

/** The value as the run takes it. */
type ValueOf<R> = R extends { readonly kind: "switch" }
  ? boolean
  : R extends { readonly kind: "urls" | "patterns" | "texts" }
    ? string[]
    : R extends { readonly kind: "positive-integer" | "positive-number" | "integer32" | "milliseconds" }
      ? number
      : R extends { readonly kind: "choice"; readonly choices: readonly (infer V)[] }
        ? V
        : string;

/** A run's flags as given (on the command line, or by the config file in their stead), by flag name. */
export type RunFlagInput = { [R in RunRow as R["name"]]?: InputOf<R> };

/** A run's flags as read, by flag name: only those given. */
export type RunFlagValues = { [R in RunRow as R["name"]]?: ValueOf<R> };

/** The run's flags that have a default. */
type RunFlagWithDefault = Extract<RunRow, { readonly default: string }>["name"];

/** Each given flag's value, read by its kind, in the table's order (so the first bad flag in it is the one reported). */
export function readRunFlags(input: RunFlagInput): RunFlagValues {
  const values: Record<string, unknown> = {};
  for (const flag of flagsOf("run")) {
    const given = input[flag.name as keyof RunFlagInput];
    if (given !== undefined) values[flag.name] = readValue(flag, given);
  }
  return values as RunFlagValues;
}

/** A run flag's default, read as a given value would be. */
export function runDefault<N extends RunFlagWithDefault>(name: N): NonNullable<RunFlagValues[N]> {
  const flag = flagOf("run", name);
  return readValue(flag, flag.default as string) as NonNullable<RunFlagValues[N]>;
}

function readValue(flag: Flag, given: string | boolean | string[]): unknown {
  const name = `--${flag.name}`;
  const text = given as string;
  switch (flag.kind) {
    case "switch":
      return given === true;
    case "text":
      if (flag.form !== undefined && !new RegExp(flag.form.pattern).test(text))
        throw new UsageError(`${name} must be ${flag.form.says}, got '${text}'`);
      return text;
    case "path":
      return text;
    case "url":
      checkTargetUrl(name, text);
      return text;
    case "urls":
      for (const url of given as string[]) checkTargetUrl(name, url);
      return given;
    case "patterns":
      if ((given as string[]).some((p) => p === "")) throw new UsageError(`${name} needs a non-empty pattern`);
      return given;
    case "texts":
      return given;
    case "positive-integer":
      if (!/^[0-9]+$/.test(text) || Number(text) <= 0 || !Number.isSafeInteger(Number(text)))
        throw new UsageError(`${name} needs a positive integer, got '${text}'`);
      return Number(text);
    case "positive-number":
      if (!/^[0-9]*\.?[0-9]+$/.test(text) || !(Number(text) > 0)) throw new UsageError(`${name} needs a positive number, got '${text}'`);
      return Number(text);
    case "integer32":
      if (!/^-?[0-9]+$/.test(text) || !Number.isSafeInteger(Number(text)) || Math.abs(Number(text)) > 2 ** 31)
        throw new UsageError(`${name} needs a 32-bit integer, got '${text}'`);
      return Number(text);
    case "milliseconds":
      return milliseconds(name, text);
    case "choice":
      if (!flag.choices?.includes(text)) throw new UsageError(`${name} must be ${flag.choices?.join(" or ")}, got '${text}'`);
      return text;
    case undefined:
      throw new Error(`--${flag.name} of a run has no kind in the flag table`);
  }
}

/** A whole number of milliseconds, 0 allowed; `source` is the flag or environment variable it came from. */
export function milliseconds(source: string, value: string): number {
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new UsageError(`${source} needs a whole number of milliseconds, got '${value}'`);
  return Number(value);
}
