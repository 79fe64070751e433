// One rewritten line of progress while files run ("suites/x.test.ts 40/120 checks"), on a terminal
// only: piped output (CI logs, tests) never gets it. The lines the run prints meanwhile (one per file
// that ended) go through print(), which takes the progress line away first and puts it back after, so
// that it never mixes with them.

import type { Reporter, TestCase, TestModule } from "vitest/node";
import { escapeControls } from "../../reporters/escape-controls.ts";
import { colourLines, type TerminalStream } from "../../reporters/terminal.ts";

/** Redraws at most this often; a file's checks may end a few hundred a second. */
const REDRAW_MS = 100;
const CLEAR = "\r\u001b[K";

export class ProgressLine implements Reporter {
  readonly #stream: TerminalStream;
  readonly #enabled: boolean;
  readonly #colour: boolean;
  /** Files running, by path: checks ended and checks to run. */
  readonly #running = new Map<string, { done: number; total: number }>();
  #shown = false;
  #drawnAt = 0;

  /** `enabled`: a terminal and no --quiet; `colour`: the printed lines are coloured. */
  constructor(stream: TerminalStream, options: { readonly enabled: boolean; readonly colour: boolean }) {
    this.#stream = stream;
    this.#enabled = options.enabled;
    this.#colour = options.colour;
  }

  /** Prints text (already escaped) above the progress line. */
  print(text: string): void {
    this.#clear();
    this.#stream.write(this.#colour ? colourLines(text) : text);
    this.#draw(true);
  }

  onTestModuleCollected(testModule: TestModule): void {
    if (!this.#enabled) return;
    let total = 0;
    for (const test of testModule.children.allTests()) if (test.options.mode !== "skip" && test.options.mode !== "todo") total += 1;
    if (total > 0) this.#running.set(testModule.relativeModuleId, { done: 0, total });
    this.#draw(false);
  }

  onTestCaseResult(testCase: TestCase): void {
    const entry = this.#running.get(testCase.module.relativeModuleId);
    if (entry === undefined) return;
    entry.done += 1;
    this.#draw(false);
  }

  onTestModuleEnd(testModule: TestModule): void {
    if (!this.#running.delete(testModule.relativeModuleId)) return;
    this.#clear();
    this.#draw(true);
  }

  onTestRunEnd(): void {
    this.#running.clear();
    this.#clear();
  }

  /** The line as it reads now, cut to the terminal's width. */
  line(): string {
    const parts = [...this.#running].map(([file, { done, total }]) => `${file} ${done}/${total} checks`);
    const text = escapeControls(parts.join("  ·  "));
    // A pseudo-terminal may say 0 columns: take 80 then.
    const columns = this.#stream.columns !== undefined && this.#stream.columns > 0 ? this.#stream.columns : 80;
    const width = Math.max(20, columns - 1);
    return text.length > width ? `${text.slice(0, width - 1)}…` : text;
  }

  #draw(force: boolean): void {
    if (!this.#enabled || this.#running.size === 0) return;
    const now = Date.now();
    if (!force && now - this.#drawnAt < REDRAW_MS) return;
    this.#drawnAt = now;
    this.#stream.write(`${CLEAR}${this.line()}`);
    this.#shown = true;
  }

  #clear(): void {
    if (!this.#shown) return;
    this.#stream.write(CLEAR);
    this.#shown = false;
  }
}
