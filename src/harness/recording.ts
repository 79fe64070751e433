// --record: every exchange of a run kept in the report directory (DIR/exchanges.jsonl, one JSON object
// a line), so that `ledger-conformance diff` can compare two runs offline. Each worker appends to its
// own part file (no two threads write one file); the command joins the parts, in time order, when the
// run ends. Bodies are kept up to RECORDED_BODY_LIMIT bytes; a JSON body's shape (members and types,
// json-diff.ts) is taken from the whole body, so that a cut body still compares. Credentials in request
// headers are never written.

import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
import type { HttpRequest, HttpResponse } from "./http-client.ts";
import { shapeOf, type Shape } from "./differential/json-diff.ts";
import type { CheckResult, ResultStatus } from "./results.ts";
import { REDACTED, redactDeep, secretTexts, type SecretHeaders } from "./secrets.ts";

/** Bytes of each body kept in a recording. */
export const RECORDED_BODY_LIMIT = 64 * 1024;
export const EXCHANGES_FILE = "exchanges.jsonl";

export interface RecordedBody {
  readonly bytes: number;
  readonly sha256: string;
  readonly encoding: "utf8" | "base64";
  readonly data: string;
  /** Only the first RECORDED_BODY_LIMIT bytes are in data. */
  readonly truncated: boolean;
}

export interface RecordedExchange {
  /** When the answer came (ISO time). */
  readonly at: string;
  /** The requirement of the check that sent it. */
  readonly requirement: string;
  /** The observed-contract verdicts on the answer, by requirement id. */
  readonly observed: Readonly<Record<string, ResultStatus>>;
  readonly request: {
    readonly method: string;
    /** Relative to the target (which ends in /v1), with the query. */
    readonly path: string;
    readonly headers: Readonly<Record<string, string>>;
    readonly body?: RecordedBody;
  };
  /** null when no HTTP answer came (error says why). */
  readonly response: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly contentType?: string;
    readonly body: RecordedBody;
    /** The JSON body's shape, when the body is JSON. */
    readonly shape?: Shape;
  } | null;
  readonly error?: string;
  readonly curl: string;
  readonly durationMs: number;
}

/** Header names whose values are credentials: written as *** like the --header values. */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key)$|token|secret|api-?key|password/i;

export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, SECRET_HEADER.test(name) ? REDACTED : value]));
}

export function recordedBody(body: Uint8Array): RecordedBody {
  const kept = body.subarray(0, RECORDED_BODY_LIMIT);
  let text: string | undefined;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(kept);
  } catch {
    text = undefined;
  }
  return {
    bytes: body.length,
    sha256: createHash("sha256").update(body).digest("hex"),
    encoding: text === undefined ? "base64" : "utf8",
    data: text ?? Buffer.from(kept).toString("base64"),
    truncated: body.length > kept.length,
  };
}

/** The request relative to the target, for a recording. */
export function relativePath(url: string, target: string): string {
  return url.startsWith(target) ? url.slice(target.length) || "/" : url;
}

/** Appends this worker's exchanges to its own part file under `partsDir`. */
export class ExchangeRecorder {
  readonly #file: string;
  readonly #target: string;
  /** The --header values and their long words: an answer that echoes one is recorded with *** instead. */
  readonly #secrets: readonly string[];
  #failed = false;

  constructor(partsDir: string, target: string, secretHeaders: SecretHeaders = {}) {
    mkdirSync(partsDir, { recursive: true });
    this.#file = join(partsDir, `exchanges-${process.pid}-${threadId}.jsonl`);
    this.#target = target;
    this.#secrets = secretTexts(secretHeaders);
  }

  record(input: {
    readonly requirement: string;
    readonly request: HttpRequest;
    readonly response?: HttpResponse;
    readonly error?: string;
    readonly curl: string;
    readonly durationMs: number;
    readonly observed?: readonly CheckResult[];
  }): void {
    const { request, response } = input;
    const observed: Record<string, ResultStatus> = {};
    for (const r of input.observed ?? []) observed[r.requirement] = r.status;
    const exchange: RecordedExchange = {
      at: new Date().toISOString(),
      requirement: input.requirement,
      observed,
      request: {
        method: request.method,
        path: relativePath(request.url, this.#target),
        headers: redactHeaders(request.headers),
        ...(request.body === undefined ? {} : { body: recordedBody(request.body) }),
      },
      response:
        response === undefined
          ? null
          : {
              status: response.status,
              headers: redactHeaders(response.headers),
              ...(response.contentType === undefined ? {} : { contentType: response.contentType }),
              body: recordedBody(response.body),
              ...(response.json === undefined ? {} : { shape: shapeOf(response.json) }),
            },
      ...(input.error === undefined ? {} : { error: input.error }),
      curl: input.curl,
      durationMs: input.durationMs,
    };
    try {
      appendFileSync(this.#file, `${JSON.stringify(redactDeep(exchange, this.#secrets))}\n`);
    } catch (e) {
      // The recording is the suite's own bookkeeping: it never fails a check. Said once, on stderr.
      if (!this.#failed)
        process.stderr.write(
          `ledger-conformance: warning: --record could not write ${this.#file}: ${(e as Error).message}; the recording is incomplete\n`,
        );
      this.#failed = true;
    }
  }
}

/** Joins the workers' part files into `outFile`, in time order; returns how many exchanges it holds. */
export function joinRecordings(partsDir: string, outFile: string): number {
  const lines: { at: string; line: string }[] = [];
  if (existsSync(partsDir)) {
    for (const name of readdirSync(partsDir)
      .filter((n) => n.endsWith(".jsonl"))
      .sort()) {
      for (const line of readFileSync(join(partsDir, name), "utf8").split("\n")) {
        if (line.trim() === "") continue;
        lines.push({ at: (JSON.parse(line) as { at: string }).at, line });
      }
    }
  }
  lines.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  writeFileSync(outFile, lines.map((l) => `${l.line}\n`).join(""));
  return lines.length;
}
