// Printing for the benchmarks: the machine line and plain-text tables with units in the headers, so the
// output can be pasted into a bug report or a release note as it is.

import { availableParallelism, cpus, loadavg, platform, release, totalmem } from "node:os";

export interface Column {
  readonly header: string;
  /** Numbers read best right-aligned; names left-aligned (the default). */
  readonly align?: "left" | "right";
}

export interface Table {
  readonly title: string;
  readonly columns: readonly Column[];
  readonly rows: readonly (readonly string[])[];
  /** Lines printed under the table: how to read it, what it leaves out. */
  readonly notes?: readonly string[];
}

/** One table as text (no trailing newline). */
export function renderTable(table: Table): string {
  const widths = table.columns.map((column, i) => Math.max(column.header.length, ...table.rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    table.columns
      .map((column, i) => {
        const cell = cells[i] ?? "";
        const width = widths[i] as number;
        return column.align === "right" ? cell.padStart(width) : cell.padEnd(width);
      })
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [
    table.title,
    line(table.columns.map((c) => c.header)),
    rule,
    ...table.rows.map(line),
    ...(table.notes ?? []).map((note) => `  ${note}`),
  ].join("\n");
}

export function printTable(table: Table): void {
  process.stdout.write(`\n${renderTable(table)}\n`);
}

export function printHeading(text: string): void {
  process.stdout.write(`\n== ${text} ==\n`);
}

/** What the figures were measured on: they mean little without it. */
export function machineDescription(): string {
  const model = cpus()[0]?.model.trim() ?? "unknown CPU";
  const memory = `${(totalmem() / 2 ** 30).toFixed(0)} GiB`;
  return `machine: ${availableParallelism()} cores (${model}), ${memory} RAM, ${platform()} ${release()}, node ${process.version}`;
}

/** Other work on the machine skews every figure; the load average says how much there was. */
export function loadDescription(): string {
  const [one, five] = loadavg();
  return `load average: ${(one ?? 0).toFixed(2)} (1 min), ${(five ?? 0).toFixed(2)} (5 min)`;
}

/** `digits` decimals, with thousands separators for large values. */
export function formatNumber(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return "-";
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Bytes as MiB with one decimal. */
export function formatMiB(bytes: number): string {
  return formatNumber(bytes / 2 ** 20, 1);
}

/** 10000 as "10^4" when it is a power of ten, else with separators. */
export function formatVersions(count: number): string {
  const exponent = Math.log10(count);
  return Number.isInteger(exponent) && exponent >= 3 ? `10^${exponent}` : formatNumber(count);
}
