// The spec's normative statements (schemas/spec-statements.yaml): every sentence or table row of
// spec/ledger-node-rest-interface.md that says what a node does, may do, or how an answer looks, with a
// stable id and its words, and the requirements that enforce it, or why none can. The open points (what
// the spec leaves "not shown") are listed apart: the family's conventions (SHOULD) fill them, and they
// are not counted in the coverage. The file is the one place the map lives; a requirement's statements
// are read from it (statementsOf).

import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { packagePath } from "../package-root.ts";
import { parsePackageYaml } from "../parsed-yaml.ts";
import { ConfigurationError } from "./configuration-error.ts";
import type { RequirementCatalog } from "./requirements.ts";

export const DEFAULT_STATEMENTS_PATH = packagePath("schemas", "spec-statements.yaml");
export const SPEC_TEXT_PATH = packagePath("spec", "ledger-node-rest-interface.md");

/** "4.3#2": the section, then the statement's ordinal in it (1-based). Section 0 is the preamble. */
export const STATEMENT_ID_PATTERN = /^([0-9]+(?:\.[0-9]+)*)#([0-9]+)$/;

export interface SpecStatement {
  readonly id: string;
  /** The statement's words, as the spec has them (whitespace collapsed; table cells joined by " | "). */
  readonly words: string;
  /** An open point: what the spec leaves "not shown". Not counted in the coverage. */
  readonly open?: true;
  /** The requirement ids whose checks enforce it. */
  readonly requirements?: readonly string[];
  /** What of it is observable from outside and not checked: the statement is covered in part. */
  readonly partial?: string;
  /** Why it cannot be checked from outside (then it names no requirement). */
  readonly untestable?: string;
}

export type Coverage = "covered" | "partial" | "uncovered" | "untestable";

export interface CoverageCounts {
  readonly statements: number;
  readonly covered: number;
  readonly partial: number;
  readonly uncovered: number;
  readonly untestable: number;
}

const ENTRY_SCHEMA = {
  type: "array",
  items: {
    type: "object",
    additionalProperties: false,
    required: ["id", "words"],
    properties: {
      id: { type: "string", pattern: STATEMENT_ID_PATTERN.source },
      words: { type: "string", minLength: 1 },
      open: { const: true },
      requirements: { type: "array", items: { type: "string", minLength: 1 }, uniqueItems: true },
      partial: { type: "string", minLength: 1 },
      untestable: { type: "string", minLength: 1 },
    },
  },
} as const;

const validateEntries = new Ajv({ allErrors: true }).compile(ENTRY_SCHEMA);

export class StatementsError extends ConfigurationError {
  override readonly name = "StatementsError";
}

export function coverageOf(statement: SpecStatement): Coverage {
  if (statement.untestable !== undefined) return "untestable";
  if ((statement.requirements ?? []).length === 0) return "uncovered";
  return statement.partial === undefined ? "covered" : "partial";
}

export function sectionOf(statementId: string): string {
  return STATEMENT_ID_PATTERN.exec(statementId)?.[1] ?? "";
}

export class SpecStatements {
  readonly statements: readonly SpecStatement[];
  readonly #byRequirement = new Map<string, SpecStatement[]>();

  constructor(statements: readonly SpecStatement[]) {
    this.statements = statements;
    for (const s of statements)
      for (const id of s.requirements ?? []) {
        const list = this.#byRequirement.get(id) ?? [];
        list.push(s);
        this.#byRequirement.set(id, list);
      }
  }

  /** The statements (and open points) a requirement enforces. */
  statementsOf(requirementId: string): readonly SpecStatement[] {
    return this.#byRequirement.get(requirementId) ?? [];
  }

  /** The normative statements, without the open points. */
  get normative(): readonly SpecStatement[] {
    return this.statements.filter((s) => s.open !== true);
  }

  coverage(): CoverageCounts {
    const counts = { statements: 0, covered: 0, partial: 0, uncovered: 0, untestable: 0 };
    for (const s of this.normative) {
      counts.statements++;
      counts[coverageOf(s)]++;
    }
    return counts;
  }
}

/**
 * The spec's text by section, normalized as statements quote it: each line trimmed and stripped of a
 * table row's outer pipes, table rules dropped, whitespace collapsed. Section "0" is the preamble.
 */
export function specSections(markdown: string): ReadonlyMap<string, string> {
  const sections = new Map<string, string[]>();
  let current = "0";
  for (const raw of markdown.split("\n")) {
    const heading = /^#{1,6}\s+([0-9]+(?:\.[0-9]+)*)\.?\s/.exec(raw);
    if (heading?.[1]) {
      current = heading[1];
      continue;
    }
    if (/^#{1,6}\s/.test(raw) || /^\|[-\s|:]+\|$/.test(raw.trim())) continue;
    const line = raw
      .trim()
      .replace(/^\|\s*/, "")
      .replace(/\s*\|$/, "");
    if (line === "") continue;
    const lines = sections.get(current) ?? [];
    lines.push(line);
    sections.set(current, lines);
  }
  return new Map([...sections].map(([section, lines]) => [section, normalizeWords(lines.join(" "))]));
}

export function normalizeWords(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Every problem of the map against the spec's text and the catalog: ids unique, ordinals 1..n in each
 * section, words found in their section, a statement either enforced or given a reason, and every
 * requirement named by some statement (a load law included).
 */
export function statementProblems(map: SpecStatements, specMarkdown: string, catalog: RequirementCatalog): string[] {
  const problems: string[] = [];
  const sections = specSections(specMarkdown);
  const seen = new Set<string>();
  const ordinals = new Map<string, number>();
  for (const s of map.statements) {
    if (seen.has(s.id)) problems.push(`${s.id}: duplicate id`);
    seen.add(s.id);
    const section = sectionOf(s.id);
    const ordinal = Number(STATEMENT_ID_PATTERN.exec(s.id)?.[2]);
    const expected = (ordinals.get(section) ?? 0) + 1;
    if (ordinal !== expected) problems.push(`${s.id}: ordinal ${ordinal} where ${expected} comes next in §${section}`);
    ordinals.set(section, ordinal);
    const text = sections.get(section);
    if (text === undefined) problems.push(`${s.id}: the spec has no section ${section}`);
    else if (!text.includes(normalizeWords(s.words)))
      problems.push(`${s.id}: the words are not in §${section}: ${JSON.stringify(s.words)}`);
    const named = s.requirements ?? [];
    for (const id of named) if (!catalog.has(id)) problems.push(`${s.id}: unknown requirement ${id}`);
    if (s.untestable !== undefined && named.length > 0) problems.push(`${s.id}: untestable, yet it names requirements`);
    if (s.partial !== undefined && named.length === 0) problems.push(`${s.id}: partial, yet it names no requirement`);
    if (s.open !== true && coverageOf(s) === "uncovered")
      problems.push(`${s.id}: no requirement enforces it and no reason says why none can`);
  }
  for (const r of catalog.requirements)
    if (map.statementsOf(r.id).length === 0) problems.push(`${r.id}: the requirement names no statement of the spec`);
  return problems;
}

export function parseStatements(text: string, source = "spec statements"): SpecStatements {
  const data = parsePackageYaml(text);
  if (!validateEntries(data)) {
    const problems = (validateEntries.errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}`);
    throw new StatementsError(`${source}: ${problems.join("; ")}`);
  }
  return new SpecStatements(data as unknown as SpecStatement[]);
}

export function loadStatements(path: string = DEFAULT_STATEMENTS_PATH): SpecStatements {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new StatementsError(`cannot read ${path}: ${(e as Error).message}`);
  }
  return parseStatements(text, path);
}

export function readSpecText(path: string = SPEC_TEXT_PATH): string {
  return readFileSync(path, "utf8");
}
