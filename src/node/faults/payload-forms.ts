// Faults in the payload forms of §2.8.1 and in the summaries of orderless transactions (§2.3): a node
// built for entry functions only, one whose request reader never learnt the multisig form, one that
// looks multisig accounts up where they are not kept, and one whose summary index records
// sequence-number transactions only.

import type { SignedTransaction } from "../../codec/index.ts";
import { LedgerError } from "../ledger/api.ts";
import { vmError } from "../ledger/vm-status.ts";
import { overrideApi, type Fault } from "./fault.ts";
import { refusing } from "./submission.ts";

function isScript(signed: SignedTransaction): boolean {
  const payload = signed.raw_txn.payload;
  return payload.$kind === "Script" || (payload.$kind === "Payload" && payload.Payload.V1.executable.$kind === "Script");
}

function isMultisig(signed: SignedTransaction): boolean {
  const payload = signed.raw_txn.payload;
  return payload.$kind === "Multisig" || (payload.$kind === "Payload" && payload.Payload.V1.extra_config.V1.multisig_address !== null);
}

const scriptPayloadRefused: Fault = {
  name: "script-payload-refused",
  area: "payload-forms",
  description: "refuses every transaction whose payload is a script, as a payload form it does not take",
  breaks: ["2.8.1/script-payload-accepted"],
  engine: refusing(isScript, () => new LedgerError(400, "invalid_input", "Script payloads are not supported by this node")),
};

const multisigPayloadMalformed: Fault = {
  name: "multisig-payload-malformed",
  area: "payload-forms",
  description: "reads a multisig payload as malformed input (400 invalid_input), in JSON and in BCS",
  breaks: ["2.8.1/multisig-payload-understood"],
  engine: (api) =>
    overrideApi(api, {
      signedTransactionFromJson: (body) => {
        const type = (body as { payload?: { type?: unknown } } | null | undefined)?.payload?.type;
        if (type === "multisig_payload")
          throw new LedgerError(400, "invalid_input", 'Invalid submission: payload.type: unknown payload type "multisig_payload"');
        return api.signedTransactionFromJson(body);
      },
      submit: (signed) => {
        if (isMultisig(signed)) throw new LedgerError(400, "invalid_input", "Invalid submission: unknown transaction payload variant");
        return api.submit(signed);
      },
    }),
};

const multisigAccountNotFound: Fault = {
  name: "multisig-account-not-found",
  area: "payload-forms",
  description: "looks a multisig account up where it is not kept: refuses every multisig transaction as naming no multisig account",
  breaks: ["2.8.1/multisig-payload-accepted"],
  engine: refusing(isMultisig, () => vmError("ACCOUNT_NOT_MULTISIG", "the multisig address is not a multisig account")),
};

const orderlessNotSummarized: Fault = {
  name: "orderless-not-summarized",
  area: "payload-forms",
  description: "leaves orderless (nonce) transactions out of the account's transaction summaries",
  breaks: ["2.3/orderless-summarized"],
  engine: (api) =>
    overrideApi(api, {
      transactionSummaries: (address, options) =>
        api.transactionSummaries(address, options).filter((summary) => summary.replayProtector.type !== "nonce"),
    }),
};

export const PAYLOAD_FORM_FAULTS: readonly Fault[] = [
  scriptPayloadRefused,
  multisigPayloadMalformed,
  multisigAccountNotFound,
  orderlessNotSummarized,
];
