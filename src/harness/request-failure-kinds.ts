// Why a request got no usable HTTP answer, and, for each reason, what the client does about it: one
// row per kind, so that a new kind cannot be added without deciding every one of its traits.

export type RequestFailureKind =
  | "refused"
  | "dns"
  | "connect_timeout"
  | "headers_timeout"
  | "body_timeout"
  | "deadline"
  | "too_large"
  | "closed"
  /** Bytes came back, but not an HTTP answer (a parser error, a body shorter than its Content-Length). */
  | "malformed"
  | "other"
  /** Not sent: the target answered none of the last requests (see HttpClientOptions.unresponsiveAfter). */
  | "not_sent"
  /** Abandoned: the run is being stopped (--max-duration, a signal). */
  | "cancelled"
  /** Answered 429 Too Many Requests on every attempt: a rate limiter in front of the node, not the node's answer. */
  | "rate_limited"
  /** An answer whose body is in a content coding the suite cannot decode: its content cannot be read. */
  | "undecodable"
  /** Answered 503 Service Unavailable on every attempt where 503 was not the answer asked about: the node shed the request. */
  | "shed";

export interface FailureKindTraits {
  /**
   * The failure says nothing about what the target would answer: the connection failed, stalled or
   * was never made. A check that meets one is skipped with the reason, never failed (a connection
   * fault is never evidence about conformance). A malformed or oversized answer is evidence.
   */
  readonly connectionFault: boolean;
  /**
   * Which requests are sent again after it. "always": every request, submissions too: the request
   * cannot have reached the target (refused, no connection; a 429 refuses before the node acts: the
   * spec gives no operation a 429), or the node declined it (503), after which the same signed bytes
   * are safe to send again: a node that did take them accepts an identical resubmission while it is
   * pending (aptos-core mempool transaction_store.rs, "If the transaction is the same, it's an
   * idempotent call"; the reference node alike). "any-fault": only requests whose resend policy is
   * "any-fault" (the connection broke or stalled before a whole answer came). "never".
   */
  readonly resent: "always" | "any-fault" | "never";
  /** An answer that declines the request (429, 503) rather than answering it (declinedKind). */
  readonly declined: boolean;
  /**
   * The target is not answering at all (a cap or a malformed answer says it is), when it met a
   * connection opened for the request: one the target had kept open may have been closed while idle,
   * which says nothing about it. Counts towards taking the target as hung.
   */
  readonly silent: boolean;
}

/** Every kind's traits. */
export const FAILURE_KINDS: Readonly<Record<RequestFailureKind, FailureKindTraits>> = {
  refused: { connectionFault: true, resent: "always", declined: false, silent: true },
  dns: { connectionFault: true, resent: "never", declined: false, silent: false },
  connect_timeout: { connectionFault: true, resent: "always", declined: false, silent: true },
  headers_timeout: { connectionFault: true, resent: "any-fault", declined: false, silent: true },
  body_timeout: { connectionFault: true, resent: "never", declined: false, silent: true },
  deadline: { connectionFault: true, resent: "any-fault", declined: false, silent: true },
  too_large: { connectionFault: false, resent: "never", declined: false, silent: false },
  closed: { connectionFault: true, resent: "any-fault", declined: false, silent: true },
  malformed: { connectionFault: false, resent: "never", declined: false, silent: false },
  other: { connectionFault: true, resent: "any-fault", declined: false, silent: false },
  not_sent: { connectionFault: true, resent: "never", declined: false, silent: false },
  cancelled: { connectionFault: true, resent: "never", declined: false, silent: false },
  rate_limited: { connectionFault: true, resent: "always", declined: true, silent: false },
  undecodable: { connectionFault: true, resent: "never", declined: false, silent: false },
  shed: { connectionFault: true, resent: "always", declined: true, silent: false },
};
