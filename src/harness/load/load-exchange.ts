// One exchange of the load mode, as the laws under load read it: which client sent it, when it went out
// and when its answer came back (on one sequence shared by every client, so that "sent after that
// answer arrived" is exact), what ledger state the answer's headers reported, and the curl line that
// replays it. Bodies are not kept: the laws that compare bodies do so as the answers arrive.

import type { LedgerState } from "../response-facts.ts";

export interface LoadExchange {
  /** Which of the load's clients sent it (a reader or a writer, each on connections of its own). */
  readonly client: string;
  /** The operationId of schemas/openapi.yaml, or undefined for a path the contract does not know. */
  readonly endpoint: string | undefined;
  /** Position on the load's event sequence when the request was handed to the client (before any wait for the rate limit). */
  readonly sentSeq: number;
  /** Position on the same sequence when the answer (or the failure) came back. */
  readonly answeredSeq: number;
  /** This machine's clock (ms since the epoch) when it was sent, for the report. */
  readonly sentAtMs: number;
  readonly durationMs: number;
  /** null: no HTTP answer (after the client's retries). */
  readonly status: number | null;
  /** The ledger state the answer's headers report (empty without an answer). */
  readonly state: LedgerState;
  readonly curl: string;
  /** Why there was no answer. */
  readonly error?: string;
}

/** One exchange as a line of evidence: when, on which client, what came back, and how to replay it. */
export function exchangeEvidence(e: LoadExchange, versionHeader: string): string {
  const sent = new Date(e.sentAtMs).toISOString();
  const answer =
    e.status === null
      ? `no answer (${e.error ?? "no HTTP answer"})`
      : `HTTP ${e.status}${e.state.ledgerVersion === undefined ? "" : `, ${versionHeader} ${e.state.ledgerVersion}`}`;
  return `sent ${sent} by ${e.client}, answered after ${e.durationMs} ms: ${answer}\n      ${e.curl}`;
}
