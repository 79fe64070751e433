// The framework published at 0x1 by genesis: modules modelled on the Aptos framework (move-stdlib,
// aptos-stdlib and aptos-framework), with their ABIs written as data. Only ABIs: the engine executes
// 0x1::aptos_account::transfer (and transfer_coins), 0x1::coin::transfer natively and every other
// entry function here as a no-op.

import type { Ability } from "../../../codec/index.ts";
import {
  entry,
  event,
  friend,
  moduleDeclaration,
  privateEntry,
  privateFun,
  pub,
  struct,
  view,
  type ModuleDeclaration,
} from "./declarations.ts";

const STRING = "0x1::string::String";
const META = "0x1::fungible_asset::Metadata";
const APT = "0x1::aptos_coin::AptosCoin";
const obj = (t: string) => `0x1::object::Object<${t}>`;
const opt = (t: string) => `0x1::option::Option<${t}>`;
const handle = (t: string) => `0x1::event::EventHandle<${t}>`;
const table = (k: string, v: string) => `0x1::table::Table<${k}, ${v}>`;
const simpleMap = (k: string, v: string) => `0x1::simple_map::SimpleMap<${k}, ${v}>`;

/** One unconstrained type parameter; `KEY` one with the key ability. */
const T: readonly (readonly Ability[])[] = [[]];
const KEY: readonly (readonly Ability[])[] = [["key"]];
const STORE: readonly (readonly Ability[])[] = [["store"]];
const EVENT_T: readonly (readonly Ability[])[] = [["drop", "store"]];

const account = moduleDeclaration("account", {
  friends: [
    "0x1::aptos_account",
    "0x1::coin",
    "0x1::genesis",
    "0x1::multisig_account",
    "0x1::resource_account",
    "0x1::transaction_validation",
  ],
  functions: [
    entry("rotate_authentication_key", ["&signer", "u8", "vector<u8>", "u8", "vector<u8>", "vector<u8>", "vector<u8>"]),
    entry("offer_signer_capability", ["&signer", "vector<u8>", "u8", "vector<u8>", "address"]),
    entry("revoke_signer_capability", ["&signer", "address"]),
    entry("offer_rotation_capability", ["&signer", "vector<u8>", "u8", "vector<u8>", "address"]),
    view("exists_at", ["address"], ["bool"]),
    view("get_sequence_number", ["address"], ["u64"]),
    view("get_authentication_key", ["address"], ["vector<u8>"]),
    view("is_signer_capability_offered", ["address"], ["bool"]),
    view("get_signer_capability_offer_for", ["address"], ["address"]),
    pub("create_resource_address", ["&address", "vector<u8>"], ["address"]),
    pub("create_resource_account", ["&signer", "vector<u8>"], ["signer", "0x1::account::SignerCapability"]),
    pub("create_signer_with_capability", ["&0x1::account::SignerCapability"], ["signer"]),
    pub("get_signer_capability_address", ["&0x1::account::SignerCapability"], ["address"]),
    friend("create_account", ["address"], ["signer"]),
    friend("increment_sequence_number", ["address"]),
    privateFun("create_account_unchecked", ["address"], ["signer"]),
  ],
  structs: [
    struct(
      "Account",
      ["key"],
      [
        ["authentication_key", "vector<u8>"],
        ["sequence_number", "u64"],
        ["guid_creation_num", "u64"],
        ["coin_register_events", handle("0x1::account::CoinRegisterEvent")],
        ["key_rotation_events", handle("0x1::account::KeyRotationEvent")],
        ["rotation_capability_offer", "0x1::account::CapabilityOffer<0x1::account::RotationCapability>"],
        ["signer_capability_offer", "0x1::account::CapabilityOffer<0x1::account::SignerCapability>"],
      ],
    ),
    struct("CapabilityOffer", ["store"], [["for", opt("address")]], T),
    struct("CoinRegisterEvent", ["drop", "store"], [["type_info", "0x1::type_info::TypeInfo"]]),
    event("KeyRotation", [
      ["account", "address"],
      ["old_authentication_key", "vector<u8>"],
      ["new_authentication_key", "vector<u8>"],
    ]),
    struct(
      "KeyRotationEvent",
      ["drop", "store"],
      [
        ["old_authentication_key", "vector<u8>"],
        ["new_authentication_key", "vector<u8>"],
      ],
    ),
    struct("RotationCapability", ["drop", "store"], [["account", "address"]]),
    struct("SignerCapability", ["drop", "store"], [["account", "address"]]),
  ],
});

const aptosAccount = moduleDeclaration("aptos_account", {
  friends: ["0x1::genesis", "0x1::resource_account"],
  functions: [
    entry("create_account", ["address"]),
    entry("transfer", ["&signer", "address", "u64"]),
    entry("batch_transfer", ["&signer", "vector<address>", "vector<u64>"]),
    entry("transfer_coins", ["&signer", "address", "u64"], { generics: T }),
    entry("batch_transfer_coins", ["&signer", "vector<address>", "vector<u64>"], { generics: T }),
    entry("transfer_fungible_assets", ["&signer", obj(META), "address", "u64"]),
    entry("set_allow_direct_coin_transfers", ["&signer", "bool"]),
    view("can_receive_direct_coin_transfers", ["address"], ["bool"]),
    pub("deposit_coins", ["address", "0x1::coin::Coin<T0>"], [], { generics: T }),
    pub("assert_account_exists", ["address"]),
    pub("assert_account_is_registered_for_apt", ["address"]),
  ],
  structs: [
    struct(
      "DirectTransferConfig",
      ["key"],
      [
        ["allow_arbitrary_coin_transfers", "bool"],
        ["update_coin_transfer_events", handle("0x1::aptos_account::DirectCoinTransferConfigUpdatedEvent")],
      ],
    ),
    event("DirectCoinTransferConfigUpdated", [
      ["account", "address"],
      ["new_allow_direct_transfers", "bool"],
    ]),
    struct("DirectCoinTransferConfigUpdatedEvent", ["drop", "store"], [["new_allow_direct_transfers", "bool"]]),
  ],
});

const aptosCoin = moduleDeclaration("aptos_coin", {
  friends: ["0x1::genesis"],
  functions: [
    entry("mint", ["&signer", "address", "u64"]),
    entry("delegate_mint_capability", ["signer", "address"]),
    entry("claim_mint_capability", ["&signer"]),
    pub("has_mint_capability", ["&signer"], ["bool"]),
    friend("initialize", ["&signer"], [`0x1::coin::BurnCapability<${APT}>`, `0x1::coin::MintCapability<${APT}>`]),
    friend("destroy_mint_cap", ["&signer"]),
  ],
  structs: [
    struct("AptosCoin", ["key"], [["dummy_field", "bool"]]),
    struct("DelegatedMintCapability", ["store"], [["to", "address"]]),
    struct("Delegations", ["key"], [["inner", "vector<0x1::aptos_coin::DelegatedMintCapability>"]]),
    struct("MintCapStore", ["key"], [["mint_cap", `0x1::coin::MintCapability<${APT}>`]]),
  ],
});

const aptosGovernance = moduleDeclaration("aptos_governance", {
  friends: ["0x1::genesis"],
  functions: [
    entry("create_proposal_v2", ["&signer", "address", "vector<u8>", "vector<u8>", "vector<u8>", "bool"]),
    entry("vote", ["&signer", "address", "u64", "bool"]),
    entry("partial_vote", ["&signer", "address", "u64", "u64", "bool"]),
    entry("add_approved_script_hash_script", ["u64"]),
    view("get_voting_duration_secs", [], ["u64"]),
    view("get_min_voting_threshold", [], ["u128"]),
    view("get_required_proposer_stake", [], ["u64"]),
    view("get_remaining_voting_power", ["address", "u64"], ["u64"]),
    view("has_entirely_voted", ["address", "u64"], ["bool"]),
    pub("reconfigure", ["&signer"]),
    pub("resolve", ["u64", "address"], ["signer"]),
  ],
  structs: [
    struct(
      "GovernanceConfig",
      ["key"],
      [
        ["min_voting_threshold", "u128"],
        ["required_proposer_stake", "u64"],
        ["voting_duration_secs", "u64"],
      ],
    ),
    struct(
      "RecordKey",
      ["copy", "drop", "store"],
      [
        ["stake_pool", "address"],
        ["proposal_id", "u64"],
      ],
    ),
    struct("VotingRecords", ["key"], [["votes", table("0x1::aptos_governance::RecordKey", "bool")]]),
    struct(
      "CreateProposalEvent",
      ["drop", "store"],
      [
        ["proposer", "address"],
        ["stake_pool", "address"],
        ["proposal_id", "u64"],
        ["execution_hash", "vector<u8>"],
        ["proposal_metadata", simpleMap(STRING, "vector<u8>")],
      ],
    ),
    event("Vote", [
      ["proposal_id", "u64"],
      ["voter", "address"],
      ["stake_pool", "address"],
      ["num_votes", "u64"],
      ["should_pass", "bool"],
    ]),
    struct(
      "VoteEvent",
      ["drop", "store"],
      [
        ["proposal_id", "u64"],
        ["voter", "address"],
        ["stake_pool", "address"],
        ["num_votes", "u64"],
        ["should_pass", "bool"],
      ],
    ),
  ],
});

const bcs = moduleDeclaration("bcs", { functions: [pub("to_bytes", ["&T0"], ["vector<u8>"], { generics: T })] });

const block = moduleDeclaration("block", {
  friends: ["0x1::genesis"],
  functions: [
    view("get_current_block_height", [], ["u64"]),
    view("get_epoch_interval_secs", [], ["u64"]),
    pub("update_epoch_interval_microsecs", ["&signer", "u64"]),
  ],
  structs: [
    struct(
      "BlockResource",
      ["key"],
      [
        ["height", "u64"],
        ["epoch_interval", "u64"],
        ["new_block_events", handle("0x1::block::NewBlockEvent")],
        ["update_epoch_interval_events", handle("0x1::block::UpdateEpochIntervalEvent")],
      ],
    ),
    struct(
      "CommitHistory",
      ["key"],
      [
        ["max_capacity", "u32"],
        ["next_idx", "u32"],
        ["table", "0x1::table_with_length::TableWithLength<u32, 0x1::block::NewBlockEvent>"],
      ],
    ),
    event("NewBlock", [
      ["hash", "address"],
      ["epoch", "u64"],
      ["round", "u64"],
      ["height", "u64"],
      ["previous_block_votes_bitvec", "vector<u8>"],
      ["proposer", "address"],
      ["failed_proposer_indices", "vector<u64>"],
      ["time_microseconds", "u64"],
    ]),
    struct(
      "NewBlockEvent",
      ["copy", "drop", "store"],
      [
        ["hash", "address"],
        ["epoch", "u64"],
        ["round", "u64"],
        ["height", "u64"],
        ["previous_block_votes_bitvec", "vector<u8>"],
        ["proposer", "address"],
        ["failed_proposer_indices", "vector<u64>"],
        ["time_microseconds", "u64"],
      ],
    ),
    struct(
      "UpdateEpochIntervalEvent",
      ["drop", "store"],
      [
        ["old_epoch_interval", "u64"],
        ["new_epoch_interval", "u64"],
      ],
    ),
  ],
});

const chainId = moduleDeclaration("chain_id", {
  friends: ["0x1::genesis"],
  functions: [view("get", [], ["u8"]), friend("initialize", ["&signer", "u8"])],
  structs: [struct("ChainId", ["key"], [["id", "u8"]])],
});

const chainStatus = moduleDeclaration("chain_status", {
  friends: ["0x1::genesis"],
  functions: [
    view("is_genesis", [], ["bool"]),
    view("is_operating", [], ["bool"]),
    pub("assert_operating", []),
    pub("assert_genesis", []),
    friend("set_genesis_end", ["&signer"]),
  ],
  structs: [struct("GenesisEndMarker", ["key"], [["dummy_field", "bool"]])],
});

const code = moduleDeclaration("code", {
  friends: ["0x1::object_code_deployment"],
  functions: [
    entry("publish_package_txn", ["&signer", "vector<u8>", "vector<vector<u8>>"]),
    pub("publish_package", ["&signer", "0x1::code::PackageMetadata", "vector<vector<u8>>"]),
    pub("upgrade_policy_arbitrary", [], ["0x1::code::UpgradePolicy"]),
    pub("upgrade_policy_compat", [], ["0x1::code::UpgradePolicy"]),
    pub("upgrade_policy_immutable", [], ["0x1::code::UpgradePolicy"]),
    pub("can_change_upgrade_policy_to", ["0x1::code::UpgradePolicy", "0x1::code::UpgradePolicy"], ["bool"]),
  ],
  structs: [
    struct(
      "ModuleMetadata",
      ["copy", "drop", "store"],
      [
        ["name", STRING],
        ["source", "vector<u8>"],
        ["source_map", "vector<u8>"],
        ["extension", opt("0x1::copyable_any::Any")],
      ],
    ),
    struct(
      "PackageDep",
      ["copy", "drop", "store"],
      [
        ["account", "address"],
        ["package_name", STRING],
      ],
    ),
    struct(
      "PackageMetadata",
      ["copy", "drop", "store"],
      [
        ["name", STRING],
        ["upgrade_policy", "0x1::code::UpgradePolicy"],
        ["upgrade_number", "u64"],
        ["source_digest", STRING],
        ["manifest", "vector<u8>"],
        ["modules", "vector<0x1::code::ModuleMetadata>"],
        ["deps", "vector<0x1::code::PackageDep>"],
        ["extension", opt("0x1::copyable_any::Any")],
      ],
    ),
    struct("PackageRegistry", ["drop", "store", "key"], [["packages", "vector<0x1::code::PackageMetadata>"]]),
    event("PublishPackage", [
      ["code_address", "address"],
      ["is_upgrade", "bool"],
    ]),
    struct("UpgradePolicy", ["copy", "drop", "store"], [["policy", "u8"]]),
  ],
});

const coin = moduleDeclaration("coin", {
  friends: ["0x1::aptos_coin", "0x1::genesis", "0x1::transaction_fee"],
  functions: [
    view("balance", ["address"], ["u64"], { generics: T }),
    privateFun("maybe_convert_to_fungible_store", ["address"], [], { generics: T }),
    view("is_account_registered", ["address"], ["bool"], { generics: T }),
    view("is_coin_initialized", [], ["bool"], { generics: T }),
    view("name", [], [STRING], { generics: T }),
    view("symbol", [], [STRING], { generics: T }),
    view("decimals", [], ["u8"], { generics: T }),
    view("supply", [], [opt("u128")], { generics: T }),
    view("paired_metadata", [], [opt(obj(META))], { generics: T }),
    entry("transfer", ["&signer", "address", "u64"], { generics: T }),
    entry("upgrade_supply", ["&signer"], { generics: T }),
    entry("migrate_to_fungible_store", ["&signer"], { generics: T }),
    pub("register", ["&signer"], [], { generics: T }),
    pub("withdraw", ["&signer", "u64"], ["0x1::coin::Coin<T0>"], { generics: T }),
    pub("deposit", ["address", "0x1::coin::Coin<T0>"], [], { generics: T }),
    pub("value", ["&0x1::coin::Coin<T0>"], ["u64"], { generics: T }),
    pub("zero", [], ["0x1::coin::Coin<T0>"], { generics: T }),
    pub("merge", ["&mut 0x1::coin::Coin<T0>", "0x1::coin::Coin<T0>"], [], { generics: T }),
    pub("extract", ["&mut 0x1::coin::Coin<T0>", "u64"], ["0x1::coin::Coin<T0>"], { generics: T }),
    pub("mint", ["u64", "&0x1::coin::MintCapability<T0>"], ["0x1::coin::Coin<T0>"], { generics: T }),
    pub("burn", ["0x1::coin::Coin<T0>", "&0x1::coin::BurnCapability<T0>"], [], { generics: T }),
    pub(
      "initialize",
      ["&signer", STRING, STRING, "u8", "bool"],
      ["0x1::coin::BurnCapability<T0>", "0x1::coin::FreezeCapability<T0>", "0x1::coin::MintCapability<T0>"],
      { generics: T },
    ),
  ],
  structs: [
    struct("BurnCapability", ["copy", "store"], [["dummy_field", "bool"]], T),
    struct("Coin", ["store"], [["value", "u64"]], T),
    struct("CoinConversionMap", ["key"], [["coin_to_fungible_asset_map", table("0x1::type_info::TypeInfo", obj(META))]]),
    event("CoinDeposit", [
      ["coin_type", STRING],
      ["account", "address"],
      ["amount", "u64"],
    ]),
    struct(
      "CoinInfo",
      ["key"],
      [
        ["name", STRING],
        ["symbol", STRING],
        ["decimals", "u8"],
        ["supply", opt("0x1::optional_aggregator::OptionalAggregator")],
      ],
      T,
    ),
    struct(
      "CoinStore",
      ["key"],
      [
        ["coin", "0x1::coin::Coin<T0>"],
        ["frozen", "bool"],
        ["deposit_events", handle("0x1::coin::DepositEvent")],
        ["withdraw_events", handle("0x1::coin::WithdrawEvent")],
      ],
      T,
    ),
    event("CoinWithdraw", [
      ["coin_type", STRING],
      ["account", "address"],
      ["amount", "u64"],
    ]),
    struct("DepositEvent", ["drop", "store"], [["amount", "u64"]]),
    struct("FreezeCapability", ["copy", "store"], [["dummy_field", "bool"]], T),
    struct("MintCapability", ["copy", "store"], [["dummy_field", "bool"]], T),
    struct("WithdrawEvent", ["drop", "store"], [["amount", "u64"]]),
  ],
});

const delegationPool = moduleDeclaration("delegation_pool", {
  functions: [
    entry("initialize_delegation_pool", ["&signer", "u64", "vector<u8>"]),
    entry("add_stake", ["&signer", "address", "u64"]),
    entry("unlock", ["&signer", "address", "u64"]),
    entry("reactivate_stake", ["&signer", "address", "u64"]),
    entry("withdraw", ["&signer", "address", "u64"]),
    entry("delegate_voting_power", ["&signer", "address", "address"]),
    entry("set_operator", ["&signer", "address"]),
    view("get_stake", ["address", "address"], ["u64", "u64", "u64"]),
    view("delegation_pool_exists", ["address"], ["bool"]),
    view("operator_commission_percentage", ["address"], ["u64"]),
    view("get_expected_stake_pool_address", ["address", "vector<u8>"], ["address"]),
    view("get_delegation_pool_stake", ["address"], ["u64", "u64", "u64", "u64"]),
  ],
  structs: [
    struct(
      "DelegationPool",
      ["key"],
      [
        ["active_shares", "0x1::pool_u64_unbound::Pool"],
        ["observed_lockup_cycle", "0x1::delegation_pool::ObservedLockupCycle"],
        ["inactive_shares", table("0x1::delegation_pool::ObservedLockupCycle", "0x1::pool_u64_unbound::Pool")],
        ["pending_withdrawals", table("address", "0x1::delegation_pool::ObservedLockupCycle")],
        ["stake_pool_signer_cap", "0x1::account::SignerCapability"],
        ["total_coins_inactive", "u64"],
        ["operator_commission_percentage", "u64"],
      ],
    ),
    struct("ObservedLockupCycle", ["copy", "drop", "store"], [["index", "u64"]]),
    event("AddStake", [
      ["pool_address", "address"],
      ["delegator_address", "address"],
      ["amount_added", "u64"],
      ["add_stake_fee", "u64"],
    ]),
    struct(
      "AddStakeEvent",
      ["drop", "store"],
      [
        ["pool_address", "address"],
        ["delegator_address", "address"],
        ["amount_added", "u64"],
        ["add_stake_fee", "u64"],
      ],
    ),
  ],
});

const error = moduleDeclaration("error", {
  functions: [
    pub("canonical", ["u64", "u64"], ["u64"]),
    ...[
      "invalid_argument",
      "out_of_range",
      "invalid_state",
      "unauthenticated",
      "permission_denied",
      "not_found",
      "aborted",
      "already_exists",
      "resource_exhausted",
      "internal",
      "not_implemented",
      "unavailable",
    ].map((name) => pub(name, ["u64"], ["u64"])),
  ],
});

const eventModule = moduleDeclaration("event", {
  friends: ["0x1::account", "0x1::object"],
  functions: [
    pub("emit", ["T0"], [], { generics: EVENT_T }),
    pub("emit_event", ["&mut 0x1::event::EventHandle<T0>", "T0"], [], { generics: EVENT_T }),
    pub("counter", ["&0x1::event::EventHandle<T0>"], ["u64"], { generics: EVENT_T }),
    pub("guid", ["&0x1::event::EventHandle<T0>"], ["&0x1::guid::GUID"], { generics: EVENT_T }),
    pub("destroy_handle", ["0x1::event::EventHandle<T0>"], [], { generics: EVENT_T }),
    friend("new_event_handle", ["0x1::guid::GUID"], ["0x1::event::EventHandle<T0>"], { generics: EVENT_T }),
  ],
  structs: [
    struct(
      "EventHandle",
      ["store"],
      [
        ["counter", "u64"],
        ["guid", "0x1::guid::GUID"],
      ],
      EVENT_T,
    ),
  ],
});

const features = moduleDeclaration("features", {
  friends: ["0x1::reconfiguration_with_dkg"],
  functions: [
    view("is_enabled", ["u64"], ["bool"]),
    pub("change_feature_flags_for_next_epoch", ["&signer", "vector<u64>", "vector<u64>"]),
    pub("get_aptos_stdlib_chain_id_feature", [], ["u64"]),
    pub("aptos_stdlib_chain_id_enabled", [], ["bool"]),
    pub("get_sha_512_and_ripemd_160_feature", [], ["u64"]),
    friend("on_new_epoch", ["&signer"]),
  ],
  structs: [struct("Features", ["key"], [["features", "vector<u8>"]]), struct("PendingFeatures", ["key"], [["features", "vector<u8>"]])],
});

const fungibleAsset = moduleDeclaration("fungible_asset", {
  friends: ["0x1::aptos_account", "0x1::coin", "0x1::primary_fungible_store"],
  functions: [
    view("balance", [obj("T0")], ["u64"], { generics: KEY }),
    view("name", [obj("T0")], [STRING], { generics: KEY }),
    view("symbol", [obj("T0")], [STRING], { generics: KEY }),
    view("decimals", [obj("T0")], ["u8"], { generics: KEY }),
    view("supply", [obj("T0")], [opt("u128")], { generics: KEY }),
    view("maximum", [obj("T0")], [opt("u128")], { generics: KEY }),
    view("store_exists", ["address"], ["bool"]),
    view("is_frozen", [obj("T0")], ["bool"], { generics: KEY }),
    view("store_metadata", [obj("T0")], [obj(META)], { generics: KEY }),
    entry("transfer", ["&signer", obj("T0"), obj("T0"), "u64"], { generics: KEY }),
    entry("upgrade_store_to_concurrent", ["&signer", obj("T0")], { generics: KEY }),
    pub("withdraw", ["&signer", obj("T0"), "u64"], ["0x1::fungible_asset::FungibleAsset"], { generics: KEY }),
    pub("deposit", [obj("T0"), "0x1::fungible_asset::FungibleAsset"], [], { generics: KEY }),
    pub("mint", ["&0x1::fungible_asset::MintRef", "u64"], ["0x1::fungible_asset::FungibleAsset"]),
    pub("burn", ["&0x1::fungible_asset::BurnRef", "0x1::fungible_asset::FungibleAsset"]),
    pub("amount", ["&0x1::fungible_asset::FungibleAsset"], ["u64"]),
    pub("metadata_from_asset", ["&0x1::fungible_asset::FungibleAsset"], [obj(META)]),
    pub("add_fungibility", ["&0x1::object::ConstructorRef", opt("u128"), STRING, STRING, "u8", STRING, STRING], [obj(META)]),
  ],
  structs: [
    struct("BurnRef", ["drop", "store"], [["metadata", obj(META)]]),
    event("Deposit", [
      ["store", "address"],
      ["amount", "u64"],
    ]),
    event("Frozen", [
      ["store", "address"],
      ["frozen", "bool"],
    ]),
    struct(
      "FungibleAsset",
      [],
      [
        ["metadata", obj(META)],
        ["amount", "u64"],
      ],
    ),
    struct(
      "FungibleStore",
      ["key"],
      [
        ["metadata", obj(META)],
        ["balance", "u64"],
        ["frozen", "bool"],
      ],
    ),
    struct(
      "Metadata",
      ["key"],
      [
        ["name", STRING],
        ["symbol", STRING],
        ["decimals", "u8"],
        ["icon_uri", STRING],
        ["project_uri", STRING],
      ],
    ),
    struct("MintRef", ["drop", "store"], [["metadata", obj(META)]]),
    struct("TransferRef", ["drop", "store"], [["metadata", obj(META)]]),
    event("Withdraw", [
      ["store", "address"],
      ["amount", "u64"],
    ]),
  ],
});

const gasScheduleFunctions = [
  pub("set_for_next_epoch", ["&signer", "vector<u8>"]),
  pub("set_storage_gas_config", ["&signer", "0x1::storage_gas::StorageGasConfig"]),
  friend("initialize", ["&signer", "vector<u8>"]),
  friend("on_new_epoch", ["&signer"]),
];
const gasScheduleStructs = [
  struct(
    "GasEntry",
    ["copy", "drop", "store"],
    [
      ["key", STRING],
      ["val", "u64"],
    ],
  ),
  struct("GasSchedule", ["copy", "drop", "key"], [["entries", "vector<0x1::gas_schedule::GasEntry>"]]),
  struct(
    "GasScheduleV2",
    ["copy", "drop", "store", "key"],
    [
      ["feature_version", "u64"],
      ["entries", "vector<0x1::gas_schedule::GasEntry>"],
    ],
  ),
];
const gasSchedule = moduleDeclaration("gas_schedule", {
  friends: ["0x1::genesis", "0x1::reconfiguration_with_dkg"],
  functions: gasScheduleFunctions,
  structs: gasScheduleStructs,
});

/** The gas_schedule upgrade a governance proposal publishes during the genesis history. */
export const GAS_SCHEDULE_UPGRADE = moduleDeclaration("gas_schedule", {
  friends: ["0x1::genesis", "0x1::reconfiguration_with_dkg"],
  functions: [...gasScheduleFunctions, pub("set_for_next_epoch_check_hash", ["&signer", "vector<u8>", "vector<u8>"])],
  structs: gasScheduleStructs,
});

const guid = moduleDeclaration("guid", {
  friends: ["0x1::account", "0x1::object"],
  functions: [
    pub("create_id", ["address", "u64"], ["0x1::guid::ID"]),
    pub("creation_num", ["&0x1::guid::GUID"], ["u64"]),
    pub("creator_address", ["&0x1::guid::GUID"], ["address"]),
    pub("eq_id", ["&0x1::guid::GUID", "&0x1::guid::ID"], ["bool"]),
    pub("id", ["&0x1::guid::GUID"], ["0x1::guid::ID"]),
    pub("id_creation_num", ["&0x1::guid::ID"], ["u64"]),
    pub("id_creator_address", ["&0x1::guid::ID"], ["address"]),
    friend("create", ["address", "&mut u64"], ["0x1::guid::GUID"]),
  ],
  structs: [
    struct("GUID", ["drop", "store"], [["id", "0x1::guid::ID"]]),
    struct(
      "ID",
      ["copy", "drop", "store"],
      [
        ["creation_num", "u64"],
        ["addr", "address"],
      ],
    ),
  ],
});

const hash = moduleDeclaration("hash", {
  functions: [pub("sha2_256", ["vector<u8>"], ["vector<u8>"]), pub("sha3_256", ["vector<u8>"], ["vector<u8>"])],
});

const multisigAccount = moduleDeclaration("multisig_account", {
  functions: [
    entry("create_with_owners", ["&signer", "vector<address>", "u64", `vector<${STRING}>`, "vector<vector<u8>>"]),
    entry("create_transaction", ["&signer", "address", "vector<u8>"]),
    entry("create_transaction_with_hash", ["&signer", "address", "vector<u8>"]),
    entry("approve_transaction", ["&signer", "address", "u64"]),
    entry("reject_transaction", ["&signer", "address", "u64"]),
    entry("execute_rejected_transaction", ["&signer", "address"]),
    entry("add_owners", ["&signer", "vector<address>"]),
    entry("remove_owners", ["&signer", "vector<address>"]),
    entry("update_signatures_required", ["&signer", "u64"]),
    view("owners", ["address"], ["vector<address>"]),
    view("num_signatures_required", ["address"], ["u64"]),
    view("next_sequence_number", ["address"], ["u64"]),
    view("get_transaction", ["address", "u64"], ["0x1::multisig_account::MultisigTransaction"]),
    view("can_be_executed", ["address", "u64"], ["bool"]),
    view("get_next_multisig_account_address", ["address"], ["address"]),
  ],
  structs: [
    struct(
      "ExecutionError",
      ["copy", "drop", "store"],
      [
        ["abort_location", STRING],
        ["error_type", STRING],
        ["error_code", "u64"],
      ],
    ),
    struct(
      "MultisigAccount",
      ["key"],
      [
        ["owners", "vector<address>"],
        ["num_signatures_required", "u64"],
        ["transactions", table("u64", "0x1::multisig_account::MultisigTransaction")],
        ["last_executed_sequence_number", "u64"],
        ["next_sequence_number", "u64"],
        ["signer_cap", opt("0x1::account::SignerCapability")],
        ["metadata", simpleMap(STRING, "vector<u8>")],
      ],
    ),
    struct(
      "MultisigTransaction",
      ["copy", "drop", "store"],
      [
        ["payload", opt("vector<u8>")],
        ["payload_hash", opt("vector<u8>")],
        ["votes", simpleMap("address", "bool")],
        ["creator", "address"],
        ["creation_time_secs", "u64"],
      ],
    ),
    event("TransactionExecutionSucceeded", [
      ["multisig_account", "address"],
      ["executor", "address"],
      ["sequence_number", "u64"],
      ["transaction_payload", "vector<u8>"],
    ]),
  ],
});

const object = moduleDeclaration("object", {
  friends: ["0x1::coin", "0x1::primary_fungible_store"],
  functions: [
    pub("address_to_object", ["address"], [obj("T0")], { generics: KEY }),
    view("is_object", ["address"], ["bool"]),
    view("owner", [obj("T0")], ["address"], { generics: KEY }),
    view("is_owner", [obj("T0"), "address"], ["bool"], { generics: KEY }),
    view("is_untransferable", [obj("T0")], ["bool"], { generics: KEY }),
    pub("create_object_address", ["&address", "vector<u8>"], ["address"]),
    pub("create_named_object", ["&signer", "vector<u8>"], ["0x1::object::ConstructorRef"]),
    pub("create_object", ["address"], ["0x1::object::ConstructorRef"]),
    pub("object_address", [`&${obj("T0")}`], ["address"], { generics: KEY }),
    pub("generate_extend_ref", ["&0x1::object::ConstructorRef"], ["0x1::object::ExtendRef"]),
    pub("generate_transfer_ref", ["&0x1::object::ConstructorRef"], ["0x1::object::TransferRef"]),
    pub("generate_signer", ["&0x1::object::ConstructorRef"], ["signer"]),
    entry("transfer_call", ["&signer", "address", "address"]),
    entry("transfer", ["&signer", obj("T0"), "address"], { generics: KEY }),
    entry("burn", ["&signer", obj("T0")], { generics: KEY }),
    privateEntry("unburn", ["&signer", obj("T0")], { generics: KEY }),
  ],
  structs: [
    struct(
      "ConstructorRef",
      ["drop"],
      [
        ["self", "address"],
        ["can_delete", "bool"],
      ],
    ),
    struct("DeleteRef", ["drop", "store"], [["self", "address"]]),
    struct("DeriveRef", ["drop", "store"], [["self", "address"]]),
    struct("ExtendRef", ["drop", "store"], [["self", "address"]]),
    struct(
      "LinearTransferRef",
      ["drop"],
      [
        ["self", "address"],
        ["owner", "address"],
      ],
    ),
    struct("Object", ["copy", "drop", "store"], [["inner", "address"]], KEY),
    struct(
      "ObjectCore",
      ["key"],
      [
        ["guid_creation_num", "u64"],
        ["owner", "address"],
        ["allow_ungated_transfer", "bool"],
        ["transfer_events", handle("0x1::object::TransferEvent")],
      ],
    ),
    event("Transfer", [
      ["object", "address"],
      ["from", "address"],
      ["to", "address"],
    ]),
    struct(
      "TransferEvent",
      ["drop", "store"],
      [
        ["object", "address"],
        ["from", "address"],
        ["to", "address"],
      ],
    ),
    struct("TransferRef", ["drop", "store"], [["self", "address"]]),
  ],
});

const option = moduleDeclaration("option", {
  functions: [
    pub("none", [], [opt("T0")], { generics: T }),
    pub("some", ["T0"], [opt("T0")], { generics: T }),
    pub("is_none", [`&${opt("T0")}`], ["bool"], { generics: T }),
    pub("is_some", [`&${opt("T0")}`], ["bool"], { generics: T }),
    pub("contains", [`&${opt("T0")}`, "&T0"], ["bool"], { generics: T }),
    pub("borrow", [`&${opt("T0")}`], ["&T0"], { generics: T }),
    pub("extract", [`&mut ${opt("T0")}`], ["T0"], { generics: T }),
    pub("fill", [`&mut ${opt("T0")}`, "T0"], [], { generics: T }),
    pub("get_with_default", [`&${opt("T0")}`, "T0"], ["T0"], { generics: [["copy", "drop"]] }),
    pub("destroy_some", [opt("T0")], ["T0"], { generics: T }),
    pub("destroy_none", [opt("T0")], [], { generics: T }),
    pub("to_vec", [opt("T0")], ["vector<T0>"], { generics: T }),
  ],
  structs: [struct("Option", ["copy", "drop", "store"], [["vec", "vector<T0>"]], T)],
});

const primaryFungibleStore = moduleDeclaration("primary_fungible_store", {
  functions: [
    view("primary_store_address", ["address", obj("T0")], ["address"], { generics: KEY }),
    view("primary_store_exists", ["address", obj("T0")], ["bool"], { generics: KEY }),
    view("balance", ["address", obj("T0")], ["u64"], { generics: KEY }),
    view("is_balance_at_least", ["address", obj("T0"), "u64"], ["bool"], { generics: KEY }),
    view("is_frozen", ["address", obj("T0")], ["bool"], { generics: KEY }),
    entry("transfer", ["&signer", obj("T0"), "address", "u64"], { generics: KEY }),
    pub("withdraw", ["&signer", obj("T0"), "u64"], ["0x1::fungible_asset::FungibleAsset"], { generics: KEY }),
    pub("deposit", ["address", "0x1::fungible_asset::FungibleAsset"]),
    pub("ensure_primary_store_exists", ["address", obj("T0")], [obj("0x1::fungible_asset::FungibleStore")], { generics: KEY }),
    pub("create_primary_store_enabled_fungible_asset", ["&0x1::object::ConstructorRef", opt("u128"), STRING, STRING, "u8", STRING, STRING]),
  ],
  structs: [struct("DeriveRefPod", ["key"], [["metadata_derive_ref", "0x1::object::DeriveRef"]])],
});

const reconfiguration = moduleDeclaration("reconfiguration", {
  friends: ["0x1::aptos_governance", "0x1::block", "0x1::gas_schedule", "0x1::genesis", "0x1::stake", "0x1::version"],
  functions: [
    view("current_epoch", [], ["u64"]),
    view("last_reconfiguration_time", [], ["u64"]),
    friend("reconfigure", []),
    friend("initialize", ["&signer"]),
  ],
  structs: [
    struct(
      "Configuration",
      ["key"],
      [
        ["epoch", "u64"],
        ["last_reconfiguration_time", "u64"],
        ["events", handle("0x1::reconfiguration::NewEpochEvent")],
      ],
    ),
    struct("DisableReconfiguration", ["key"], [["dummy_field", "bool"]]),
    event("NewEpoch", [["epoch", "u64"]]),
    struct("NewEpochEvent", ["drop", "store"], [["epoch", "u64"]]),
  ],
});

const resourceAccount = moduleDeclaration("resource_account", {
  functions: [
    entry("create_resource_account", ["&signer", "vector<u8>", "vector<u8>"]),
    entry("create_resource_account_and_fund", ["&signer", "vector<u8>", "vector<u8>", "u64"]),
    entry("create_resource_account_and_publish_package", ["&signer", "vector<u8>", "vector<u8>", "vector<vector<u8>>"]),
    pub("retrieve_resource_account_cap", ["&signer", "address"], ["0x1::account::SignerCapability"]),
  ],
  structs: [struct("Container", ["key"], [["store", simpleMap("address", "0x1::account::SignerCapability")]])],
});

const signer = moduleDeclaration("signer", {
  functions: [pub("borrow_address", ["&signer"], ["&address"]), pub("address_of", ["&signer"], ["address"])],
});

const simpleMapModule = moduleDeclaration("simple_map", {
  functions: [
    pub("new", [], [simpleMap("T0", "T1")], { generics: [["store"], ["store"]] }),
    pub("length", [`&${simpleMap("T0", "T1")}`], ["u64"], { generics: [["store"], ["store"]] }),
    pub("contains_key", [`&${simpleMap("T0", "T1")}`, "&T0"], ["bool"], { generics: [["store"], ["store"]] }),
    pub("borrow", [`&${simpleMap("T0", "T1")}`, "&T0"], ["&T1"], { generics: [["store"], ["store"]] }),
    pub("add", [`&mut ${simpleMap("T0", "T1")}`, "T0", "T1"], [], { generics: [["store"], ["store"]] }),
    pub("upsert", [`&mut ${simpleMap("T0", "T1")}`, "T0", "T1"], [opt("T0"), opt("T1")], { generics: [["store"], ["store"]] }),
    pub("remove", [`&mut ${simpleMap("T0", "T1")}`, "&T0"], ["T0", "T1"], { generics: [["store"], ["store"]] }),
    pub("keys", [`&${simpleMap("T0", "T1")}`], ["vector<T0>"], { generics: [["copy"], []] }),
    pub("values", [`&${simpleMap("T0", "T1")}`], ["vector<T1>"], { generics: [[], ["copy"]] }),
  ],
  structs: [
    struct(
      "Element",
      ["copy", "drop", "store"],
      [
        ["key", "T0"],
        ["value", "T1"],
      ],
      [[], []],
    ),
    struct("SimpleMap", ["copy", "drop", "store"], [["data", "vector<0x1::simple_map::Element<T0, T1>>"]], [[], []]),
  ],
});

const stake = moduleDeclaration("stake", {
  friends: ["0x1::block", "0x1::genesis", "0x1::reconfiguration", "0x1::transaction_fee"],
  functions: [
    entry("initialize_stake_owner", ["&signer", "u64", "address", "address"]),
    entry("add_stake", ["&signer", "u64"]),
    entry("unlock", ["&signer", "u64"]),
    entry("withdraw", ["&signer", "u64"]),
    entry("reactivate_stake", ["&signer", "u64"]),
    entry("join_validator_set", ["&signer", "address"]),
    entry("leave_validator_set", ["&signer", "address"]),
    entry("rotate_consensus_key", ["&signer", "address", "vector<u8>", "vector<u8>"]),
    entry("update_network_and_fullnode_addresses", ["&signer", "address", "vector<u8>", "vector<u8>"]),
    entry("set_operator", ["&signer", "address"]),
    entry("set_delegated_voter", ["&signer", "address"]),
    entry("increase_lockup", ["&signer"]),
    view("get_stake", ["address"], ["u64", "u64", "u64", "u64"]),
    view("get_validator_state", ["address"], ["u64"]),
    view("stake_pool_exists", ["address"], ["bool"]),
    view("get_lockup_secs", ["address"], ["u64"]),
    view("get_remaining_lockup_secs", ["address"], ["u64"]),
    view("get_current_epoch_voting_power", ["address"], ["u64"]),
    view("get_operator", ["address"], ["address"]),
    view("get_delegated_voter", ["address"], ["address"]),
    friend("on_new_epoch", []),
    friend("update_performance_statistics", [opt("u64"), "vector<u64>"]),
  ],
  structs: [
    event("DistributeRewards", [
      ["pool_address", "address"],
      ["rewards_amount", "u64"],
    ]),
    struct(
      "AddStakeEvent",
      ["drop", "store"],
      [
        ["pool_address", "address"],
        ["amount_added", "u64"],
      ],
    ),
    struct(
      "IndividualValidatorPerformance",
      ["drop", "store"],
      [
        ["successful_proposals", "u64"],
        ["failed_proposals", "u64"],
      ],
    ),
    struct(
      "StakePool",
      ["key"],
      [
        ["active", `0x1::coin::Coin<${APT}>`],
        ["inactive", `0x1::coin::Coin<${APT}>`],
        ["pending_active", `0x1::coin::Coin<${APT}>`],
        ["pending_inactive", `0x1::coin::Coin<${APT}>`],
        ["locked_until_secs", "u64"],
        ["operator_address", "address"],
        ["delegated_voter", "address"],
      ],
    ),
    struct(
      "ValidatorConfig",
      ["copy", "drop", "store", "key"],
      [
        ["consensus_pubkey", "vector<u8>"],
        ["network_addresses", "vector<u8>"],
        ["fullnode_addresses", "vector<u8>"],
        ["validator_index", "u64"],
      ],
    ),
    struct(
      "ValidatorInfo",
      ["copy", "drop", "store"],
      [
        ["addr", "address"],
        ["voting_power", "u64"],
        ["config", "0x1::stake::ValidatorConfig"],
      ],
    ),
    struct("ValidatorPerformance", ["key"], [["validators", "vector<0x1::stake::IndividualValidatorPerformance>"]]),
    struct(
      "ValidatorSet",
      ["key"],
      [
        ["consensus_scheme", "u8"],
        ["active_validators", "vector<0x1::stake::ValidatorInfo>"],
        ["pending_inactive", "vector<0x1::stake::ValidatorInfo>"],
        ["pending_active", "vector<0x1::stake::ValidatorInfo>"],
        ["total_voting_power", "u128"],
        ["total_joining_power", "u128"],
      ],
    ),
  ],
});

const stakingConfig = moduleDeclaration("staking_config", {
  friends: ["0x1::genesis", "0x1::stake"],
  functions: [
    pub("get", [], ["0x1::staking_config::StakingConfig"]),
    pub("get_allow_validator_set_change", ["&0x1::staking_config::StakingConfig"], ["bool"]),
    pub("get_required_stake", ["&0x1::staking_config::StakingConfig"], ["u64", "u64"]),
    pub("get_recurring_lockup_duration", ["&0x1::staking_config::StakingConfig"], ["u64"]),
    pub("get_reward_rate", ["&0x1::staking_config::StakingConfig"], ["u64", "u64"]),
    pub("get_voting_power_increase_limit", ["&0x1::staking_config::StakingConfig"], ["u64"]),
    pub("update_required_stake", ["&signer", "u64", "u64"]),
    pub("update_recurring_lockup_duration_secs", ["&signer", "u64"]),
    pub("update_voting_power_increase_limit", ["&signer", "u64"]),
    friend("initialize", ["&signer", "u64", "u64", "u64", "bool", "u64", "u64", "u64"]),
  ],
  structs: [
    struct(
      "StakingConfig",
      ["copy", "drop", "key"],
      [
        ["minimum_stake", "u64"],
        ["maximum_stake", "u64"],
        ["recurring_lockup_duration_secs", "u64"],
        ["allow_validator_set_change", "bool"],
        ["rewards_rate", "u64"],
        ["rewards_rate_denominator", "u64"],
        ["voting_power_increase_limit", "u64"],
      ],
    ),
    struct(
      "StakingRewardsConfig",
      ["copy", "drop", "key"],
      [
        ["rewards_rate", "0x1::fixed_point64::FixedPoint64"],
        ["min_rewards_rate", "0x1::fixed_point64::FixedPoint64"],
        ["rewards_rate_period_in_secs", "u64"],
        ["last_rewards_rate_period_start_in_secs", "u64"],
        ["rewards_rate_decrease_rate", "0x1::fixed_point64::FixedPoint64"],
      ],
    ),
  ],
});

const string = moduleDeclaration("string", {
  functions: [
    pub("utf8", ["vector<u8>"], [STRING]),
    pub("try_utf8", ["vector<u8>"], [opt(STRING)]),
    pub("bytes", [`&${STRING}`], ["&vector<u8>"]),
    pub("is_empty", [`&${STRING}`], ["bool"]),
    pub("length", [`&${STRING}`], ["u64"]),
    pub("append", [`&mut ${STRING}`, STRING]),
    pub("append_utf8", [`&mut ${STRING}`, "vector<u8>"]),
    pub("insert", [`&mut ${STRING}`, "u64", STRING]),
    pub("sub_string", [`&${STRING}`, "u64", "u64"], [STRING]),
    pub("index_of", [`&${STRING}`, `&${STRING}`], ["u64"]),
  ],
  structs: [struct("String", ["copy", "drop", "store"], [["bytes", "vector<u8>"]])],
});

const TABLE_GENERICS: readonly (readonly Ability[])[] = [["copy", "drop"], []];
const tableRef = `&${table("T0", "T1")}`;
const tableMut = `&mut ${table("T0", "T1")}`;
const tableModule = moduleDeclaration("table", {
  friends: ["0x1::table_with_length"],
  functions: [
    pub("new", [], [table("T0", "T1")], { generics: [["copy", "drop"], ["store"]] }),
    pub("add", [tableMut, "T0", "T1"], [], { generics: TABLE_GENERICS }),
    pub("borrow", [tableRef, "T0"], ["&T1"], { generics: TABLE_GENERICS }),
    pub("borrow_with_default", [tableRef, "T0", "&T1"], ["&T1"], { generics: TABLE_GENERICS }),
    pub("borrow_mut", [tableMut, "T0"], ["&mut T1"], { generics: TABLE_GENERICS }),
    pub("borrow_mut_with_default", [tableMut, "T0", "T1"], ["&mut T1"], { generics: [["copy", "drop"], ["drop"]] }),
    pub("upsert", [tableMut, "T0", "T1"], [], { generics: [["copy", "drop"], ["drop"]] }),
    pub("remove", [tableMut, "T0"], ["T1"], { generics: TABLE_GENERICS }),
    pub("contains", [tableRef, "T0"], ["bool"], { generics: TABLE_GENERICS }),
  ],
  structs: [
    struct("Box", ["drop", "store", "key"], [["val", "T0"]], T),
    struct("Table", ["store"], [["handle", "address"]], TABLE_GENERICS),
  ],
});

const tableWithLength = moduleDeclaration("table_with_length", {
  functions: [
    pub("new", [], ["0x1::table_with_length::TableWithLength<T0, T1>"], { generics: [["copy", "drop"], ["store"]] }),
    pub("length", ["&0x1::table_with_length::TableWithLength<T0, T1>"], ["u64"], { generics: TABLE_GENERICS }),
    pub("add", ["&mut 0x1::table_with_length::TableWithLength<T0, T1>", "T0", "T1"], [], { generics: TABLE_GENERICS }),
    pub("contains", ["&0x1::table_with_length::TableWithLength<T0, T1>", "T0"], ["bool"], { generics: TABLE_GENERICS }),
  ],
  structs: [
    struct(
      "TableWithLength",
      ["store"],
      [
        ["inner", table("T0", "T1")],
        ["length", "u64"],
      ],
      TABLE_GENERICS,
    ),
  ],
});

const timestamp = moduleDeclaration("timestamp", {
  friends: ["0x1::block", "0x1::genesis"],
  functions: [
    view("now_microseconds", [], ["u64"]),
    view("now_seconds", [], ["u64"]),
    pub("set_time_has_started", ["&signer"]),
    friend("update_global_time", ["&signer", "address", "u64"]),
  ],
  structs: [struct("CurrentTimeMicroseconds", ["key"], [["microseconds", "u64"]])],
});

const transactionFee = moduleDeclaration("transaction_fee", {
  friends: ["0x1::aptos_governance", "0x1::genesis", "0x1::reconfiguration", "0x1::transaction_validation"],
  functions: [
    friend("burn_fee", ["address", "u64"]),
    friend("mint_and_refund", ["address", "u64"]),
    friend("store_aptos_coin_burn_cap", ["&signer", `0x1::coin::BurnCapability<${APT}>`]),
    friend("store_aptos_coin_mint_cap", ["&signer", `0x1::coin::MintCapability<${APT}>`]),
  ],
  structs: [
    struct("AptosCoinCapabilities", ["key"], [["burn_cap", `0x1::coin::BurnCapability<${APT}>`]]),
    struct("AptosCoinMintCapability", ["key"], [["mint_cap", `0x1::coin::MintCapability<${APT}>`]]),
    event("FeeStatement", [
      ["total_charge_gas_units", "u64"],
      ["execution_gas_units", "u64"],
      ["io_gas_units", "u64"],
      ["storage_fee_octas", "u64"],
      ["storage_fee_refund_octas", "u64"],
    ]),
  ],
});

const transactionValidation = moduleDeclaration("transaction_validation", {
  friends: ["0x1::genesis"],
  functions: [friend("initialize", ["&signer", "vector<u8>", "vector<u8>", "vector<u8>", "vector<u8>"])],
  structs: [
    struct(
      "TransactionValidation",
      ["key"],
      [
        ["module_addr", "address"],
        ["module_name", "vector<u8>"],
        ["script_prologue_name", "vector<u8>"],
        ["module_prologue_name", "vector<u8>"],
        ["multi_agent_prologue_name", "vector<u8>"],
        ["user_epilogue_name", "vector<u8>"],
      ],
    ),
  ],
});

const typeInfo = moduleDeclaration("type_info", {
  functions: [
    pub("account_address", ["&0x1::type_info::TypeInfo"], ["address"]),
    pub("module_name", ["&0x1::type_info::TypeInfo"], ["vector<u8>"]),
    pub("struct_name", ["&0x1::type_info::TypeInfo"], ["vector<u8>"]),
    pub("type_of", [], ["0x1::type_info::TypeInfo"], { generics: T }),
    pub("type_name", [], [STRING], { generics: T }),
    pub("chain_id", [], ["u8"]),
    pub("size_of_val", ["&T0"], ["u64"], { generics: T }),
  ],
  structs: [
    struct(
      "TypeInfo",
      ["copy", "drop", "store"],
      [
        ["account_address", "address"],
        ["module_name", "vector<u8>"],
        ["struct_name", "vector<u8>"],
      ],
    ),
  ],
});

const vector = moduleDeclaration("vector", {
  functions: [
    pub("empty", [], ["vector<T0>"], { generics: T }),
    pub("length", ["&vector<T0>"], ["u64"], { generics: T }),
    pub("borrow", ["&vector<T0>", "u64"], ["&T0"], { generics: T }),
    pub("push_back", ["&mut vector<T0>", "T0"], [], { generics: T }),
    pub("pop_back", ["&mut vector<T0>"], ["T0"], { generics: T }),
    pub("append", ["&mut vector<T0>", "vector<T0>"], [], { generics: T }),
    pub("contains", ["&vector<T0>", "&T0"], ["bool"], { generics: T }),
    pub("index_of", ["&vector<T0>", "&T0"], ["bool", "u64"], { generics: T }),
    pub("is_empty", ["&vector<T0>"], ["bool"], { generics: T }),
    pub("reverse", ["&mut vector<T0>"], [], { generics: T }),
    pub("singleton", ["T0"], ["vector<T0>"], { generics: T }),
    pub("remove", ["&mut vector<T0>", "u64"], ["T0"], { generics: T }),
    pub("swap_remove", ["&mut vector<T0>", "u64"], ["T0"], { generics: T }),
  ],
});

const version = moduleDeclaration("version", {
  friends: ["0x1::genesis", "0x1::reconfiguration_with_dkg"],
  functions: [
    pub("set_for_next_epoch", ["&signer", "u64"]),
    pub("set_version", ["&signer", "u64"]),
    friend("initialize", ["&signer", "u64"]),
    friend("on_new_epoch", ["&signer"]),
  ],
  structs: [
    struct("SetVersionCapability", ["key"], [["dummy_field", "bool"]]),
    struct("Version", ["drop", "store", "key"], [["major", "u64"]]),
  ],
});

const votingProposal = "0x1::voting::Proposal<T0>";
const voting = moduleDeclaration("voting", {
  friends: ["0x1::aptos_governance"],
  functions: [
    pub("register", ["&signer"], [], { generics: STORE }),
    pub(
      "create_proposal_v2",
      ["address", "address", "T0", "vector<u8>", "u128", "u64", opt("u128"), simpleMap(STRING, "vector<u8>"), "bool"],
      ["u64"],
      { generics: STORE },
    ),
    pub("vote", ["&T0", "address", "u64", "u64", "bool"], [], { generics: STORE }),
    view("get_proposal_state", ["address", "u64"], ["u64"], { generics: STORE }),
    view("is_voting_closed", ["address", "u64"], ["bool"], { generics: STORE }),
    view("next_proposal_id", ["address"], ["u64"], { generics: STORE }),
    view("get_votes", ["address", "u64"], ["u128", "u128"], { generics: STORE }),
    view("get_proposer", ["address", "u64"], ["address"], { generics: STORE }),
    view("get_execution_hash", ["address", "u64"], ["vector<u8>"], { generics: STORE }),
  ],
  structs: [
    struct(
      "CreateProposalEvent",
      ["drop", "store"],
      [
        ["proposal_id", "u64"],
        ["early_resolution_vote_threshold", opt("u128")],
        ["execution_hash", "vector<u8>"],
        ["expiration_secs", "u64"],
        ["metadata", simpleMap(STRING, "vector<u8>")],
        ["min_vote_threshold", "u128"],
      ],
    ),
    struct(
      "Proposal",
      ["store"],
      [
        ["proposer", "address"],
        ["execution_content", opt("T0")],
        ["metadata", simpleMap(STRING, "vector<u8>")],
        ["creation_time_secs", "u64"],
        ["execution_hash", "vector<u8>"],
        ["min_vote_threshold", "u128"],
        ["expiration_secs", "u64"],
        ["early_resolution_vote_threshold", opt("u128")],
        ["yes_votes", "u128"],
        ["no_votes", "u128"],
        ["is_resolved", "bool"],
        ["resolution_time_secs", "u64"],
      ],
      STORE,
    ),
    struct(
      "VoteEvent",
      ["drop", "store"],
      [
        ["proposal_id", "u64"],
        ["num_votes", "u64"],
      ],
    ),
    struct(
      "VotingForum",
      ["key"],
      [
        ["proposals", table("u64", votingProposal)],
        ["next_proposal_id", "u64"],
      ],
      STORE,
    ),
  ],
});

/** The modules genesis publishes at 0x1. */
export const FRAMEWORK_MODULES: readonly ModuleDeclaration[] = [
  account,
  aptosAccount,
  aptosCoin,
  aptosGovernance,
  bcs,
  block,
  chainId,
  chainStatus,
  code,
  coin,
  delegationPool,
  error,
  eventModule,
  features,
  fungibleAsset,
  gasSchedule,
  guid,
  hash,
  multisigAccount,
  object,
  option,
  primaryFungibleStore,
  reconfiguration,
  resourceAccount,
  signer,
  simpleMapModule,
  stake,
  stakingConfig,
  string,
  tableModule,
  tableWithLength,
  timestamp,
  transactionFee,
  transactionValidation,
  typeInfo,
  vector,
  version,
  voting,
];

/** A module a governance proposal publishes during the genesis history (absent at earlier versions). */
export const RANDOMNESS_MODULE = moduleDeclaration("randomness", {
  friends: ["0x1::block"],
  functions: [
    pub("u64_integer", [], ["u64"]),
    pub("u64_range", ["u64", "u64"], ["u64"]),
    pub("bytes", ["u64"], ["vector<u8>"]),
    pub("permutation", ["u64"], ["vector<u64>"]),
    friend("on_new_block", ["&signer", "u64", "u64", opt("vector<u8>")]),
  ],
  structs: [
    struct(
      "PerBlockRandomness",
      ["drop", "key"],
      [
        ["epoch", "u64"],
        ["round", "u64"],
        ["seed", opt("vector<u8>")],
      ],
    ),
    event("RandomnessGeneratedEvent", [["dummy_field", "bool"]]),
  ],
});
