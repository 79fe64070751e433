// The two wire profiles of the reference node (the family's convention), and every behaviour in which they differ,
// here and nowhere else. "node" is the spec's faithful node. "aptos" is a stand-in for a real Aptos
// fullnode: the family's header prefix and BCS submission type, so Aptos clients (the Aptos TS SDK)
// can talk to it, and aptos-core's own behaviour where the spec leaves a choice or where aptos-core
// deviates from it (each field cites the aptos-core source it follows). The conformance
// suite run with `--profile aptos --baseline baselines/aptos-core.txt` passes it.

import { WIRE_PROFILES, type ProfileName, type WireProfile } from "../../codec/index.ts";

export { isProfileName, type ProfileName } from "../../codec/index.ts";

/** Which path forms name an address (§2.1 against aptos-core's parser). */
export type AddressForms =
  /** §2.1: 0x optional; leading zeros may be stripped, with or without 0x; at least one digit. */
  | "spec"
  /**
   * aptos-core: api/types/src/address.rs `FromStr` over third_party/move/move-core/types/src/
   * account_address.rs `AccountAddress::from_str`: `from_hex_literal` (0x and at most 64 digits,
   * padded, so "0x" alone is 0x0), else `from_hex` (exactly 64 digits without 0x). "1" is refused.
   */
  | "aptos";

/** Which decimal forms an integer query value may take. */
export type IntegerForms =
  /** Digits only (the family's convention). */
  | "digits"
  /**
   * Rust's integer `FromStr` (core::num `from_str_radix`), which aptos-core's poem query parameters
   * use (`Query<Option<u64>>`, `Query<Option<u16>>`): digits after an optional leading '+'.
   */
  | "rust";

/** What limit=0 gets: 400 web_framework_error, 400 invalid_input, or an empty page. */
export type LimitZero = "rejected" | "invalid_input" | "empty";

export interface Profile extends WireProfile {
  /** Message of the health success object. */
  readonly healthMessage: string;
  /**
   * Error objects always carry vm_error_code, null when there is none: aptos-core's AptosError has
   * `pub vm_error_code: Option<u64>` with no skip_serializing_if (api/types/src/error.rs).
   */
  readonly vmErrorCodeAlways: boolean;
  /**
   * The pending transaction always carries replay_protection_nonce, null for a sequence-number
   * transaction, after the signature: api/types/src/transaction.rs `UserTransactionRequest`.
   */
  readonly replayProtectionNonceAlways: boolean;
  /** Content-Type of /spec.yaml: aptos-core api/src/spec.rs `spec_endpoint_yaml` sends application/x-yaml, no charset. */
  readonly specYamlType: string;
  /**
   * Whether /spec, /spec.yaml, /spec.json (and the spec page's assets) carry the §2.7 headers.
   * aptos-core mounts the spec documents beside the API service, not in it (api/src/runtime.rs
   * `.at("/spec.json", spec_json)`), so they carry none.
   */
  readonly specPagesLedgerHeaders: boolean;
  readonly addressForms: AddressForms;
  /**
   * limit=0 on the summaries: 400 (the family's convention), or an empty page as aptos-core gives it
   * (api/src/transactions.rs `get_accounts_transaction_summaries`: `min(limit, max page size)`, no
   * lower bound).
   */
  readonly summariesLimitZero: "rejected" | "empty";
  /**
   * Status of a body whose Content-Type the endpoint does not take, or of a POST without one: 400 (the
   * statuses §4.2 and §4.8 list), or 415 as poem-openapi answers (poem-openapi/src/error.rs
   * `ContentTypeError::{NotSupported, ExpectContentType}`: UNSUPPORTED_MEDIA_TYPE).
   */
  readonly unsupportedMediaTypeStatus: 400 | 415;
  /**
   * A POST without Content-Length is refused with 411: aptos-core api/src/check_size.rs
   * `PostSizeLimit` (`SizedLimitError::MissingContentLength`).
   */
  readonly postNeedsContentLength: boolean;
  /**
   * JSON form of a summary's replay_protector: the family's tagged object {type, sequence_number}, or
   * the bare u64 string aptos-core sends. Its ReplayProtector (api/types/src/transaction.rs) is a
   * poem-openapi Union of U64 newtypes with discriminator_name "type", and poem's union inserts the
   * discriminator only into object values (poem-openapi-derive/src/union.rs), so "5" goes out as is.
   */
  readonly replayProtectorJson: "tagged" | "bare";
  readonly integerQueryForms: IntegerForms;
  /**
   * Largest duration_secs of /-/healthy: a u64 (the family's convention), or a u32 as aptos-core declares
   * it (api/src/basic.rs `duration_secs: Query<Option<u32>>`), so a larger value is a query parse
   * error: 400 web_framework_error, as every malformed query value.
   */
  readonly healthDurationType: "u64" | "u32";
  /**
   * A duration_secs reaching before the Unix epoch (longer than the time since 1970): healthy as the
   * rule says, or 500 internal_error as aptos-core answers (src/node/ledger/api.ts HealthOptions).
   */
  readonly healthDurationBeforeEpoch: "healthy" | "internal_error";
  /**
   * limit=0 on the module listing: 400 web_framework_error (the family's convention), or 400
   * invalid_input as aptos-core's api/src/page.rs `determine_limit` answers ("Given limit value (0)
   * must not be zero", AptosErrorCode::InvalidInput).
   */
  readonly modulesLimitZero: Exclude<LimitZero, "empty">;
  /**
   * Whether a module ABI's structs carry is_enum and variants (enums exist from bytecode version 7),
   * after is_event and after fields respectively, always, even when false and empty: aptos-core's
   * MoveStruct (api/types/src/move_types.rs; api/doc/spec.yaml lists both as required).
   */
  readonly structEnumMembers: boolean;
  /**
   * Transaction summaries asked from a start_version below the oldest retained version: 410
   * version_pruned (§1 "A request for a pruned ledger version is answered with status 410"), or, as
   * aptos-core answers, a scan of the account's summary index from start_version over what the pruner
   * left: 200 with the retained summaries (and with only an end_version below the oldest, 200 []).
   * aptos-core checks no pruning there: storage/aptosdb/src/db/aptosdb_reader.rs
   * `get_account_transaction_summaries` goes straight to `get_account_transaction_summaries_iter`
   * (storage/aptosdb/src/transaction_store/mod.rs), where the ledger reads call `error_if_ledger_pruned`.
   */
  readonly summariesBelowOldest: "gone" | "scan";
}

const PROFILES: Record<ProfileName, Profile> = {
  node: {
    ...WIRE_PROFILES.node,
    healthMessage: "ledger-node:ok",
    vmErrorCodeAlways: false,
    replayProtectionNonceAlways: false,
    specYamlType: "application/yaml; charset=utf-8",
    specPagesLedgerHeaders: true,
    addressForms: "spec",
    summariesLimitZero: "rejected",
    unsupportedMediaTypeStatus: 400,
    postNeedsContentLength: false,
    replayProtectorJson: "tagged",
    integerQueryForms: "digits",
    healthDurationType: "u64",
    healthDurationBeforeEpoch: "healthy",
    modulesLimitZero: "rejected",
    structEnumMembers: false,
    summariesBelowOldest: "gone",
  },
  aptos: {
    ...WIRE_PROFILES.aptos,
    healthMessage: "aptos-node:ok",
    vmErrorCodeAlways: true,
    replayProtectionNonceAlways: true,
    specYamlType: "application/x-yaml",
    specPagesLedgerHeaders: false,
    addressForms: "aptos",
    summariesLimitZero: "empty",
    unsupportedMediaTypeStatus: 415,
    postNeedsContentLength: true,
    replayProtectorJson: "bare",
    integerQueryForms: "rust",
    healthDurationType: "u32",
    healthDurationBeforeEpoch: "internal_error",
    modulesLimitZero: "invalid_input",
    structEnumMembers: true,
    summariesBelowOldest: "scan",
  },
};

/** The profile's settings, with an optional header prefix override. */
export function profileSettings(name: ProfileName, headerPrefix?: string): Profile {
  const base = PROFILES[name];
  return headerPrefix === undefined ? base : { ...base, headerPrefix };
}
