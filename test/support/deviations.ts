// Deviations of our own making, beyond the reference node's named faults: each applied alone by the
// variation proxy (variation-proxy.ts) to a conforming node's answers, as an allowed variation is
// (variations.ts), but each breaking a rule. The suite must fail (or warn, for a SHOULD) every
// requirement a deviation declares, in the node profile and in the aptos profile with the shipped
// baseline (test/self-check/deviations.test.ts): the proof that the baseline, each id narrowed to one
// aptos-core deviation, masks none of them.

import { decodeBcs, encodeBcs, TransactionSummaryListBcs } from "../../src/codec/index.ts";
import { hasBody, type Answer } from "./proxy-answer.ts";
import type { VariationHooks } from "./variations.ts";

export interface Deviation {
  readonly name: string;
  /** One line: what it does, and the rule it breaks. */
  readonly description: string;
  /** The requirements the run must fail (a MUST) or warn (a SHOULD) in both profiles. */
  readonly breaks: readonly string[];
  /** Fresh hooks for one proxy. */
  readonly create: () => VariationHooks;
}

const header = (answer: Answer, name: string): string | undefined => answer.headers.find(([n]) => n.toLowerCase() === name)?.[1];
/** The interface description (§4.1): its answers are the spec pages, judged apart from the API's. */
const SPEC_PAGE = /\/spec(\.json|\.yaml)?$/;
const MODULES = /^\/v1\/accounts\/([^/]+)\/modules$/;
/** An address §2.1 allows in a path: hex, with or without 0x, at most 64 digits. */
const WELL_FORMED_ADDRESS = /^(0x)?[0-9a-fA-F]{1,64}$/;

function jsonAnswer(answer: Answer, status: number, json: unknown): void {
  answer.status = status;
  answer.body = Buffer.from(JSON.stringify(json), "utf8");
  answer.headers = answer.headers.map(([name, value]) => [name, name.toLowerCase() === "content-type" ? "application/json" : value]);
}

/** The limit query value of the request the answer is for, or null. */
const limitOf = (answer: Answer): string | null => new URL(answer.target, "http://proxy").searchParams.get("limit");

export const DEVIATIONS: readonly Deviation[] = [
  {
    name: "no-block-height-headers",
    description:
      "Every X-*-BLOCK-HEIGHT and X-*-OLDEST-BLOCK-HEIGHT header dropped from the API's answers, not the spec pages' (§2.7 required on 200).",
    breaks: ["2.7/required-headers-on-api-success"],
    create: () => ({
      answer: (answer) => {
        if (SPEC_PAGE.test(answer.path)) return false;
        const kept = answer.headers.filter(([name]) => !/^x-[a-z0-9]+-(oldest-)?block-height$/i.test(name));
        const changed = kept.length !== answer.headers.length;
        answer.headers = kept;
        return changed;
      },
    }),
  },
  {
    name: "table-item-errors-418",
    description: "Every error of the table item endpoint answered 418, a status §4.2 does not list (§7.1).",
    breaks: ["7.1/listed-status", "4.2/case-error-codes"],
    create: () => ({
      answer: (answer) => {
        if (!/^\/v1\/tables\/[^/]+\/item$/.test(answer.path) || answer.status < 400) return false;
        answer.status = 418;
        return true;
      },
    }),
  },
  {
    name: "bcs-replay-protectors-swapped",
    description: "The two ReplayProtector variants swapped in the BCS summaries, Nonce for SequenceNumber and back (§2.3, §4).",
    breaks: ["4.3/summary-bcs"],
    create: () => ({
      answer: (answer) => {
        if (!answer.path.endsWith("/transaction_summaries") || answer.status !== 200 || !hasBody(answer)) return false;
        if (header(answer, "content-type")?.split(";")[0]?.trim() !== "application/x-bcs") return false;
        const summaries = decodeBcs(TransactionSummaryListBcs, answer.body);
        if (summaries.length === 0) return false;
        const swapped = summaries.map(({ V1: s }) => {
          const rp = s.replay_protector;
          const other = rp.$kind === "Nonce" ? { SequenceNumber: rp.Nonce } : { Nonce: rp.SequenceNumber };
          return { V1: { ...s, replay_protector: other } };
        });
        answer.body = Buffer.from(encodeBcs(TransactionSummaryListBcs, swapped));
        return true;
      },
    }),
  },
  {
    name: "modules-limit-zero-empty",
    description: "limit=0 on the module listing answered 200 with [] (the family's convention: 400, §4.5).",
    breaks: ["4.5/limit-zero-rejected"],
    create: () => ({
      answer: (answer) => {
        if (!MODULES.test(answer.path) || answer.status === 200 || limitOf(answer) !== "0") return false;
        jsonAnswer(answer, 200, []);
        return true;
      },
    }),
  },
  {
    name: "modules-malformed-address-404",
    description:
      "A malformed path address on the module listing answered 404 account_not_found instead of 400 (the family's convention, §4.5).",
    breaks: ["4.5/error-codes"],
    create: () => ({
      answer: (answer) => {
        const address = MODULES.exec(answer.path)?.[1];
        if (address === undefined || WELL_FORMED_ADDRESS.test(decodeURIComponent(address)) || answer.status !== 400) return false;
        jsonAnswer(answer, 404, { message: "Account not found", error_code: "account_not_found", vm_error_code: null });
        return true;
      },
    }),
  },
];

export const DEVIATION_NAMES: readonly string[] = DEVIATIONS.map((d) => d.name);
