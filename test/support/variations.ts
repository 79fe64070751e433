// Allowed variations: things HTTP, JSON or the interface spec leave free, each applied alone by the
// variation proxy (variation-proxy.ts) to a conforming node's answers. The suite must pass the node
// under every one of them (test/self-check/allowed-variations.test.ts). Each names the rule that allows
// it, and says whether it changed an answer, so that one that never fires fails the guard.
//
// Left out, as not surely allowed: media-type parameters beyond the spelling of those the node sends
// (an unknown parameter of application/x-bcs has no registration to allow it); unknown members in the
// interface description (/spec.json must be the description that /spec.yaml is, §4.1, and an OpenAPI
// object admits only `x-` extensions); whitespace or a changed order in a BCS body (BCS has neither).

import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { randomBytes } from "node:crypto";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { codingAsked } from "../../src/harness/content-coding.ts";
import { mapObjects, parseJsonText, writeJsonText, type JsonNode, type JsonStyle } from "./json-text.ts";
import { hasBody, writePlain, type Answer } from "./proxy-answer.ts";

/** A variation's hooks for one proxy; each says whether it changed what it was given. */
export interface VariationHooks {
  /** The request target as forwarded upstream. */
  target?(target: string): string;
  /** Changes `answer` in place; true when it changed it. */
  answer?(answer: Answer): boolean;
  /** Writes the answer its own way; true when the wire differs from the plain write. */
  write?(answer: Answer, res: ServerResponse): boolean | Promise<boolean>;
  /** Sets up the proxy's server; `changed` counts one change (a connection closed). */
  server?(server: Server, changed: () => void): void;
  /** Answers the request itself, as a gateway in front of the node would, or undefined to forward it (counted as a change). */
  respond?(request: GatewayRequest): GatewayAnswer | undefined;
}

/** What a gateway's own answer is decided on. */
export interface GatewayRequest {
  readonly method: string;
  /** Without the query. */
  readonly path: string;
  /** With the query. */
  readonly target: string;
}

export type GatewayAnswer = Omit<Answer, "requestHeaders">;

export interface Variation {
  readonly name: string;
  /** One line: what it does, and the rule that allows it. */
  readonly description: string;
  /**
   * The family's conventions (SHOULD requirements) the variation departs from, which the spec leaves
   * open: the run must warn on exactly these, and fail nothing. Most variations depart from none.
   */
  readonly departsFrom?: readonly string[];
  /** Fresh hooks (and state) for one proxy. */
  readonly create: () => VariationHooks;
}

const JSON_TYPE = /^\s*application\/json\s*(;|$)/i;
/** The interface description (§4.1): its JSON is an OpenAPI document, not a resource of §2. */
const DESCRIPTION = /\/spec(\.json|\.yaml)?$/;

const header = (answer: Answer, name: string): string | undefined => answer.headers.find(([n]) => n.toLowerCase() === name)?.[1];
const isJson = (answer: Answer): boolean => hasBody(answer) && JSON_TYPE.test(header(answer, "content-type") ?? "");

/** Rewrites a JSON answer's tree (and its text, in `style`); true when the text changed. */
function rewriteJson(answer: Answer, change: (root: JsonNode) => JsonNode, style?: JsonStyle): boolean {
  if (!isJson(answer)) return false;
  const text = answer.body.toString("utf8");
  const root = parseJsonText(text);
  if (root === undefined) return false;
  const rewritten = writeJsonText(change(root), style);
  if (rewritten === text) return false;
  answer.body = Buffer.from(rewritten, "utf8");
  return true;
}

/**
 * Other names for the members an answer carries whose names the spec does not show (§2.3–§2.6), by
 * the answer's path and status; undefined for an answer that has none.
 */
function unshownRenames(answer: Answer): Readonly<Record<string, string>> | undefined {
  if (answer.status >= 400) return { message: "detail", error_code: "code" };
  if (answer.status !== 200) return undefined;
  if (/\/transaction_summaries$/.test(answer.path)) return { sender: "account", version: "txn_version" };
  if (/\/accounts\/[^/]+\/modules?(\/[^/]+)?$/.test(answer.path)) return { bytecode: "module_bytecode" };
  if (answer.path.endsWith("/estimate_gas_price")) return { gas_estimate: "regular_gas_estimate" };
  return undefined;
}

/** The same hooks for every proxy: the variation keeps no state. */
const stateless = (hooks: VariationHooks) => () => hooks;

/** idle-close-50ms: how long a keep-alive connection may stay idle. */
const IDLE_CLOSE_MS = 50;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A gateway's answer declining a request: `status`, Retry-After: 1 (RFC 9110 §10.2.3) and a §2.6
 * error object, of a §7.2 code a gateway in front of the node would give for a refusal of its own.
 */
function declining(request: GatewayRequest, status: 429 | 503, message: string): GatewayAnswer {
  const body = Buffer.from(JSON.stringify({ message, error_code: "internal_error", vm_error_code: null }), "utf8");
  return {
    method: request.method,
    path: request.path,
    target: request.target,
    status,
    headers: [
      ["Content-Type", "application/json"],
      ["Content-Length", String(body.length)],
      ["Retry-After", "1"],
    ],
    body,
  };
}

/** The one request whose 503 is the answer asked about (§4.7: a failed health check): a gateway that shed it would make the node look unhealthy. */
const judgesA503 = (request: GatewayRequest) => /\/-\/healthy$/.test(request.path) && /[?&]duration_secs=/.test(request.target);

/** rate-limit-429: the gateway's rate, requests per second, and the burst its bucket holds. */
export const GATEWAY_RATE = 120;

const BASE_VARIATIONS: readonly Variation[] = [
  {
    name: "unknown-members",
    description:
      'An "x_future": true member in every JSON object of every JSON answer, errors included (§2.3, §2.4, §2.6: other members are "not shown"; objects are open).',
    create: stateless({
      answer: (answer) =>
        !DESCRIPTION.test(answer.path) &&
        rewriteJson(answer, (root) => mapObjects(root, (members) => [...members, ["x_future", { kind: "literal", text: "true" }]])),
    }),
  },
  {
    name: "header-value-whitespace",
    description:
      "SP and HTAB before and after every header value but the framing's (RFC 9112 §5.1: OWS around a field value is not part of it).",
    create: stateless({
      answer: (answer) => {
        // Content-Length is left as written: the suite's HTTP parser (llhttp, in undici) takes an HTAB
        // after its digits for a body of another length, and could not read such an answer at all.
        answer.headers = answer.headers.map(([name, value]) => [name, name.toLowerCase() === "content-length" ? value : ` \t${value} \t`]);
        return answer.headers.length > 0;
      },
    }),
  },
  {
    name: "submission-200",
    description: "An accepted submission answered 200 instead of 202 (§4.8: the success status of a submission is not shown).",
    departsFrom: ["4.8/accepted-with-202"],
    create: stateless({
      answer: (answer) => {
        if (answer.method !== "POST" || !answer.path.endsWith("/transactions") || answer.status !== 202) return false;
        answer.status = 200;
        return true;
      },
    }),
  },
  {
    name: "idle-close-50ms",
    description:
      "Idle keep-alive connections closed after 50 ms, with no Keep-Alive hint (RFC 9112 §9.3.1: either side may close an idle connection at any time).",
    create: () => ({
      server(server, changed) {
        // Its own timer: Node's keepAliveTimeout adds a second of grace (Node 20.20 closed after ~1,050 ms at 50).
        const idle = new Map<Socket, NodeJS.Timeout>();
        server.on("request", (req: IncomingMessage, res: ServerResponse) => {
          const { socket } = req;
          clearTimeout(idle.get(socket));
          res.once("finish", () => {
            const readSoFar = socket.bytesRead;
            const timer = setTimeout(() => {
              idle.delete(socket);
              // Bytes of a next request already read: the connection is not idle.
              if (socket.destroyed || socket.bytesRead !== readSoFar) return;
              changed();
              socket.destroy();
            }, IDLE_CLOSE_MS);
            timer.unref();
            idle.set(socket, timer);
          });
          socket.once("close", () => clearTimeout(idle.get(socket)));
        });
      },
      answer(answer) {
        // A Connection header of the proxy's own makes Node leave out its `Keep-Alive: timeout=` hint.
        if (!/\bclose\b/i.test(String(answer.requestHeaders.connection ?? ""))) answer.headers.push(["Connection", "keep-alive"]);
        return false;
      },
    }),
  },
  {
    name: "other-error-messages",
    description: "Every error object's message replaced by another human-readable text (§2.6: the message is a free-text description).",
    create: stateless({
      answer: (answer) =>
        answer.status >= 400 &&
        rewriteJson(answer, (root) =>
          root.kind === "object" && root.members.some(([key, value]) => key === "message" && value.kind === "string")
            ? {
                kind: "object",
                members: root.members.map(
                  ([key, value]) =>
                    [
                      key,
                      key === "message"
                        ? {
                            kind: "string",
                            value: `The node could not serve this request (status ${answer.status}); this text is not the node's own.`,
                          }
                        : value,
                    ] as const,
                ),
              }
            : root,
        ),
    }),
  },
  {
    name: "unshown-members-renamed",
    description:
      "The members whose names the spec does not show named otherwise: the error object's message and error code (§2.6), a summary's sender and version (§2.3), a module record's bytecode (§2.4), the regular gas estimate (§2.5).",
    departsFrom: ["2/family-member-names"],
    create: stateless({
      answer: (answer) => {
        const renames = unshownRenames(answer);
        return (
          renames !== undefined &&
          rewriteJson(answer, (root) => mapObjects(root, (members) => members.map(([key, value]) => [renames[key] ?? key, value] as const)))
        );
      },
    }),
  },
  {
    name: "chunked-bodies",
    description: "Every body sent with Transfer-Encoding: chunked in three chunks instead of Content-Length (RFC 9112 §6.1, §7.1).",
    create: stateless({
      write(answer, res) {
        if (!hasBody(answer) || answer.body.length < 3) return writePlain(answer, res);
        res.writeHead(answer.status, answer.headers.filter(([name]) => name.toLowerCase() !== "content-length").flat());
        const { body } = answer;
        const cuts = [0, Math.floor(body.length / 3), Math.floor((2 * body.length) / 3), body.length];
        for (let i = 0; i < 3; i++) res.write(body.subarray(cuts[i], cuts[i + 1]));
        res.end();
        return true;
      },
    }),
  },
  {
    name: "interim-1xx",
    description:
      "A 103 Early Hints interim answer before every final answer (RFC 9110 §15.2: a client must parse 1xx answers it did not expect).",
    create: stateless({
      write(answer, res) {
        res.writeEarlyHints({ link: "</v1/spec.json>; rel=preload; as=fetch" });
        writePlain(answer, res);
        return true;
      },
    }),
  },
  {
    name: "opaque-cursor",
    description:
      "The cursor header replaced by another hex token, mapped back when passed as start= (§2.1, §4.5: the client cannot derive a cursor, only pass it back).",
    create() {
      const toNode = new Map<string, string>();
      const fromNode = new Map<string, string>();
      return {
        target(target) {
          const [path, query] = splitTarget(target);
          if (query === undefined) return target;
          const params = query.split("&").map((param) => {
            const eq = param.indexOf("=");
            if (eq < 0 || decodeQuery(param.slice(0, eq)) !== "start") return param;
            const original = toNode.get(decodeQuery(param.slice(eq + 1)));
            return original === undefined ? param : `${param.slice(0, eq)}=${encodeURIComponent(original)}`;
          });
          return `${path}?${params.join("&")}`;
        },
        answer(answer) {
          let changed = false;
          answer.headers = answer.headers.map(([name, value]) => {
            if (!/^x-[a-z]+-cursor$/i.test(name)) return [name, value];
            let token = fromNode.get(value);
            if (token === undefined) {
              // Unrelated to the node's cursor (random), of the form §2.1 gives it (hex), stable per cursor.
              token = `0x${randomBytes(24).toString("hex")}`;
              fromNode.set(value, token);
              toNode.set(token, value);
            }
            changed = true;
            return [name, token];
          });
          return changed;
        },
      };
    },
  },
  {
    name: "json-member-order",
    description: "The members of every JSON object in reverse order (RFC 8259 §4: an object is an unordered collection).",
    create: stateless({ answer: (answer) => rewriteJson(answer, (root) => mapObjects(root, (members) => [...members].reverse())) }),
  },
  {
    name: "json-whitespace",
    description: "Insignificant whitespace around every structural character of JSON answers (RFC 8259 §2).",
    create: stateless({ answer: (answer) => rewriteJson(answer, (root) => root, { space: " \r\n\t" }) }),
  },
  {
    name: "json-string-escapes",
    description: 'JSON strings with "a", "A" and "/" escaped as \\u0061, \\u0041 and \\/ (RFC 8259 §7: any character may be escaped).',
    create: stateless({ answer: (answer) => rewriteJson(answer, (root) => root, { quote: escapingQuote }) }),
  },
  {
    name: "header-name-case",
    description: "Every header name in alternating case, e.g. X-nOdE-LeDgEr-vErSiOn (RFC 9110 §5.1: field names are case-insensitive).",
    create: stateless({
      answer: (answer) => {
        answer.headers = answer.headers.map(([name, value]) => [
          [...name].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c.toLowerCase())).join(""),
          value,
        ]);
        return answer.headers.length > 0;
      },
    }),
  },
  {
    name: "header-order",
    description: "The header lines in reverse order (RFC 9110 §5.3: the order of fields with different names is not significant).",
    create: stateless({
      answer: (answer) => {
        answer.headers = [...answer.headers].reverse();
        return answer.headers.length > 1;
      },
    }),
  },
  {
    name: "media-type-spelling",
    description:
      'Content-Type spelled otherwise: type in upper case, OWS before ";", parameter name capitalised, its value quoted (RFC 9110 §8.3.1, §5.6.6).',
    create: stateless({
      answer: (answer) => {
        let changed = false;
        answer.headers = answer.headers.map(([name, value]) => {
          if (name.toLowerCase() !== "content-type") return [name, value];
          const [type, ...params] = value.split(";").map((part) => part.trim());
          const spelled = [
            (type as string).toUpperCase(),
            ...params.map((param) =>
              param.replace(
                /^([^=]+)=([!#$%&'*+.^_`|~0-9A-Za-z-]+)$/,
                (_m, n: string, v: string) => `${n.charAt(0).toUpperCase()}${n.slice(1)}="${v.toUpperCase()}"`,
              ),
            ),
          ].join(" ;");
          changed ||= spelled !== value;
          return [name, spelled];
        });
        return changed;
      },
    }),
  },
  {
    name: "latency",
    description: "Every answer held back 5 to 30 ms (§8 and RFC 9110 set no time within which a node must answer).",
    create() {
      let seed = 1;
      return {
        async write(answer, res) {
          // A fixed sequence (a linear congruential generator), so that runs are repeatable.
          seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
          await delay(5 + (seed % 26));
          if (!res.destroyed) writePlain(answer, res);
          return true;
        },
      };
    },
  },
  {
    name: "shed-503",
    description:
      "One read in twenty answered 503 with Retry-After: 1 and an error object by a gateway, the node not asked (§7.1: 503 for every endpoint but /spec; RFC 9110 §15.6.4).",
    create() {
      let reads = 0;
      return {
        respond(request) {
          if (request.method !== "GET" || DESCRIPTION.test(request.path) || judgesA503(request)) return undefined;
          reads += 1;
          return reads % 20 === 7 ? declining(request, 503, "The service is temporarily overloaded: try again later.") : undefined;
        },
      };
    },
  },
  {
    name: "rate-limit-429",
    description: `A gateway's token bucket of ${GATEWAY_RATE} requests/s over all requests, answering 429 with Retry-After: 1 beyond it (RFC 6585 §4; RFC 9110 §10.2.3).`,
    create() {
      let tokens = GATEWAY_RATE;
      let at = performance.now();
      return {
        respond(request) {
          const now = performance.now();
          tokens = Math.min(GATEWAY_RATE, tokens + ((now - at) / 1000) * GATEWAY_RATE);
          at = now;
          if (tokens >= 1) {
            tokens -= 1;
            return undefined;
          }
          return declining(request, 429, "Rate limit exceeded: try again later.");
        },
      };
    },
  },
  {
    name: "slow-tail",
    description: "One answer in 25 held back 0.8 to 1.5 s (§8 and RFC 9110 set no time within which a node must answer).",
    create() {
      let answers = 0;
      let seed = 7;
      return {
        async write(answer, res) {
          answers += 1;
          if (answers % 25 !== 13) return writePlain(answer, res);
          // A fixed sequence (a linear congruential generator), so that runs are repeatable.
          seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
          await delay(800 + (seed % 701));
          if (!res.destroyed) writePlain(answer, res);
          return true;
        },
      };
    },
  },
  {
    name: "close-after-three",
    description:
      "Every connection closed after its third answer, without Connection: close (RFC 9112 §9.3.1, §9.6: a server may close a persistent connection at any time).",
    create: () => ({
      server(server, changed) {
        const answered = new WeakMap<Socket, number>();
        server.on("request", (req: IncomingMessage, res: ServerResponse) => {
          const { socket } = req;
          res.once("finish", () => {
            const n = (answered.get(socket) ?? 0) + 1;
            answered.set(socket, n);
            if (n < 3) return;
            changed();
            socket.end();
          });
        });
      },
      answer(answer) {
        // A Connection header of the proxy's own makes Node leave out its `Keep-Alive: timeout=` hint.
        if (!/\bclose\b/i.test(String(answer.requestHeaders.connection ?? ""))) answer.headers.push(["Connection", "keep-alive"]);
        return false;
      },
    }),
  },
  {
    name: "connection-close",
    description: "Connection: close on every answer, the connection closed after it (RFC 9112 §9.6).",
    create: stateless({
      answer: (answer) => {
        answer.headers.push(["Connection", "close"]);
        return true;
      },
    }),
  },
];

/** The codings coded-answers rotates through, and how each codes a body. */
const CODERS: readonly (readonly [string, (body: Buffer) => Buffer])[] = [
  ["gzip", (body) => gzipSync(body)],
  ["deflate", (body) => deflateSync(body)],
  ["br", (body) => brotliCompressSync(body)],
];

/**
 * The answer's body coded by `coder`, with Content-Encoding naming it and Vary naming Accept-Encoding
 * (RFC 9110 §12.5.5); Content-Length is set anew by the proxy. False when the answer has no body or is
 * coded already.
 */
function codeAnswer(answer: Answer, coding: string, code: (body: Buffer) => Buffer): boolean {
  if (!hasBody(answer) || answer.body.length === 0 || header(answer, "content-encoding") !== undefined) return false;
  answer.body = code(answer.body);
  answer.headers.push(["Content-Encoding", coding], ["Vary", "Accept-Encoding"]);
  return true;
}

/** Variations of the content codings production nodes and their gateways send. */
const CODING_VARIATIONS: readonly Variation[] = [
  {
    name: "coded-answers",
    description:
      "Every answer with a body coded gzip, deflate or br in turn, as the request's Accept-Encoding allows (RFC 9110 §8.4, §12.5.3).",
    create() {
      let turn = 0;
      return {
        answer(answer) {
          const accept = answer.requestHeaders["accept-encoding"];
          const allowed = CODERS.filter(([coding]) => codingAsked(accept, coding));
          if (allowed.length === 0) return false;
          const [coding, code] = allowed[turn++ % allowed.length] as (typeof CODERS)[number];
          return codeAnswer(answer, coding, code);
        },
      };
    },
  },
  {
    name: "coded-unasked",
    description:
      "Every answer with a body gzip-coded, whether or not the request asked for it (RFC 9110 §12.5.3: a request without Accept-Encoding accepts any coding).",
    create: stateless({ answer: (answer) => codeAnswer(answer, "gzip", (body) => gzipSync(body)) }),
  },
];

export const VARIATIONS: readonly Variation[] = [...BASE_VARIATIONS, ...CODING_VARIATIONS];

export const VARIATION_NAMES: readonly string[] = VARIATIONS.map((v) => v.name);

export function variationNamed(name: string): Variation {
  const variation = VARIATIONS.find((v) => v.name === name);
  if (variation === undefined) throw new Error(`unknown variation ${name} (known: ${VARIATION_NAMES.join(", ")})`);
  return variation;
}

/** What json-string-escapes writes for "a", "A" and "/". */
const ESCAPES: Readonly<Record<string, string>> = { a: "\\u0061", A: "\\u0041", "/": "\\/" };

/** A JSON string literal with "a", "A" and "/" escaped, the rest as JSON.stringify writes it (its own escapes kept whole). */
function escapingQuote(value: string): string {
  return JSON.stringify(value).replace(/\\(u[0-9a-fA-F]{4}|.)|[aA/]/g, (match) => ESCAPES[match] ?? match);
}

function splitTarget(target: string): [string, string | undefined] {
  const q = target.indexOf("?");
  return q < 0 ? [target, undefined] : [target.slice(0, q), target.slice(q + 1)];
}

function decodeQuery(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** Variations whose answer hook only asks the proxy's server to close the connection (Connection: close): their change is on the wire. */
const CLOSES_CONNECTIONS: ReadonlySet<string> = new Set(["connection-close"]);

/** Whether a variation acts on the wire: framing, interim answers, connections, a gateway's own answers, delays. */
export function actsOnTheWire(variation: Variation): boolean {
  const hooks = variation.create();
  return hooks.write !== undefined || hooks.server !== undefined || hooks.respond !== undefined || CLOSES_CONNECTIONS.has(variation.name);
}

/**
 * Whether a variation changes answers and nothing else, so that a recorded answer rewritten by it is
 * what a client would read (test/self-check/variation-replay.test.ts).
 */
export function rewritesAnswersOnly(variation: Variation): boolean {
  return variation.create().answer !== undefined && !actsOnTheWire(variation);
}
