// The registry of named faults (`ledger-node --fault NAME`, `--list-faults`): realistic deviations from
// the spec, one file per area of the interface. They are a sample of what can go wrong, not a target:
// the suite's checks come from the spec, and the faults prove that the checks see. The self-check
// (test/self-check/faults.test.ts) runs the whole suite against the node with each one and expects it
// to fail, with every requirement the fault declares among the failed ones.

import type { FastifyInstance } from "fastify";
import type { LedgerApi } from "../ledger/api.ts";
import { CONCURRENCY_FAULTS } from "./concurrency.ts";
import { ERROR_FAULTS } from "./errors.ts";
import type { Fault, FaultContext } from "./fault.ts";
import { GAS_FAULTS } from "./gas.ts";
import { HEADER_FAULTS } from "./headers.ts";
import { HEALTH_FAULTS } from "./health.ts";
import { INPUT_FAULTS } from "./inputs.ts";
import { MEDIA_FAULTS } from "./media.ts";
import { MODULE_FAULTS } from "./modules.ts";
import { PAGINATION_FAULTS } from "./pagination.ts";
import { PAYLOAD_FORM_FAULTS } from "./payload-forms.ts";
import { SPEC_PAGE_FAULTS } from "./spec-pages.ts";
import { STATUS_FAULTS } from "./statuses.ts";
import { SIGNATURE_FAULTS } from "./signatures.ts";
import { SUBMISSION_FAULTS } from "./submission.ts";
import { VERSION_FAULTS } from "./versions.ts";

export type { Fault, FaultArea, FaultContext } from "./fault.ts";

export const FAULTS: readonly Fault[] = [
  ...HEADER_FAULTS,
  ...STATUS_FAULTS,
  ...ERROR_FAULTS,
  ...PAGINATION_FAULTS,
  ...VERSION_FAULTS,
  ...MEDIA_FAULTS,
  ...SUBMISSION_FAULTS,
  ...SIGNATURE_FAULTS,
  ...PAYLOAD_FORM_FAULTS,
  ...GAS_FAULTS,
  ...HEALTH_FAULTS,
  ...SPEC_PAGE_FAULTS,
  ...MODULE_FAULTS,
  ...CONCURRENCY_FAULTS,
  ...INPUT_FAULTS,
];

export const FAULT_NAMES: readonly string[] = FAULTS.map((fault) => fault.name);

export class UnknownFaultError extends Error {
  override readonly name = "UnknownFaultError";
}

export function faultNamed(name: string): Fault {
  const fault = FAULTS.find((f) => f.name === name);
  if (fault === undefined) throw new UnknownFaultError(`unknown fault '${name}' (see --list-faults)`);
  return fault;
}

/** The faults switched on in one node, ready for the HTTP face to apply. */
export interface ActiveFaults {
  readonly names: readonly string[];
  /** The engine as the faults make the HTTP face see it. */
  wrapEngine(api: LedgerApi): LedgerApi;
  /** Adds the faults' hooks; called after the app's own hooks and before its routes. */
  install(app: FastifyInstance): void;
}

export function activateFaults(names: readonly string[], context: FaultContext): ActiveFaults {
  const faults = [...new Set(names)].map(faultNamed);
  return {
    names: faults.map((f) => f.name),
    wrapEngine: (api) => faults.reduce((wrapped, fault) => fault.engine?.(wrapped, context) ?? wrapped, api),
    install: (app) => {
      for (const fault of faults) fault.http?.(app, context);
    },
  };
}
