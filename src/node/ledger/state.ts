// The ledger's multi-version state, by kind: accounts (sequence number, authentication key, AptosCoin
// balance), modules (bytecode and ABI), table items (BCS key to BCS value) and multisig accounts.
// Every write happens at the version of the transaction that made it.

import { bytesToHex } from "@noble/hashes/utils.js";
import type { ModuleRecord } from "./api.ts";
import type { Prunable } from "./pruner.ts";
import { VersionedStore } from "./versioned-store.ts";

export interface AccountState {
  readonly sequenceNumber: bigint;
  readonly authenticationKey: Uint8Array;
  /** AptosCoin, in octas. */
  readonly balance: bigint;
}

/**
 * A proposal of a multisig account (aptos-framework sources/multisig_account.move `MultisigTransaction`):
 * the payload to run (the BCS of a MultisigTransactionPayload) or only its SHA3-256 hash, and the owners
 * (hex, no 0x) that approved it.
 */
export interface MultisigProposal {
  readonly payload?: Uint8Array;
  readonly payloadHash?: Uint8Array;
  readonly approvals: readonly string[];
}

/**
 * 0x1::multisig_account::MultisigAccount, the part the VM's multisig flow reads: the owners, how many
 * approvals a proposal needs, the proposals by sequence number, the last one executed (or rejected),
 * and the number the next proposal gets.
 */
export interface MultisigAccountState {
  readonly owners: readonly string[];
  readonly numSignaturesRequired: bigint;
  readonly transactions: ReadonlyMap<bigint, MultisigProposal>;
  readonly lastExecutedSequenceNumber: bigint;
  readonly nextSequenceNumber: bigint;
}

/** One change a transaction makes. `undefined` deletes. */
export type StateWrite =
  | { readonly kind: "account"; readonly address: Uint8Array; readonly value: AccountState }
  | { readonly kind: "multisig"; readonly address: Uint8Array; readonly value: MultisigAccountState }
  | { readonly kind: "module"; readonly address: Uint8Array; readonly name: string; readonly value: ModuleRecord }
  | { readonly kind: "table_item"; readonly handle: Uint8Array; readonly key: Uint8Array; readonly value: Uint8Array | undefined };

/** The state key of a module, as the modules cursor names it. */
export function moduleStateKey(address: Uint8Array, name: string): string {
  return `module:0x${bytesToHex(address)}::${name}`;
}

const hexKey = (bytes: Uint8Array): string => bytesToHex(bytes);

export class LedgerState implements Prunable {
  private accounts = new VersionedStore<AccountState>();
  private modules = new VersionedStore<ModuleRecord>();
  private tableItems = new VersionedStore<Uint8Array>();
  private multisigAccounts = new VersionedStore<MultisigAccountState>();
  /** Module names ever published at each address (hex), sorted: the order of the modules listing. */
  private readonly moduleNames = new Map<string, string[]>();

  /** A state with the same histories, independent of this one from now on (the values, never changed in place, are shared). */
  copy(): LedgerState {
    const copy = new LedgerState();
    copy.accounts = this.accounts.copy();
    copy.modules = this.modules.copy();
    copy.tableItems = this.tableItems.copy();
    copy.multisigAccounts = this.multisigAccounts.copy();
    for (const [address, names] of this.moduleNames) copy.moduleNames.set(address, [...names]);
    return copy;
  }

  apply(version: bigint, writes: readonly StateWrite[]): void {
    for (const write of writes) {
      switch (write.kind) {
        case "account":
          this.accounts.put(hexKey(write.address), version, write.value);
          break;
        case "multisig":
          this.multisigAccounts.put(hexKey(write.address), version, write.value);
          break;
        case "module":
          this.modules.put(moduleStateKey(write.address, write.name), version, write.value);
          this.indexModule(write.address, write.name);
          break;
        case "table_item": {
          const key = tableItemKey(write.handle, write.key);
          if (write.value === undefined) this.tableItems.delete(key, version);
          else this.tableItems.put(key, version, write.value);
          break;
        }
      }
    }
  }

  account(address: Uint8Array, version: bigint): AccountState | undefined {
    return this.accounts.get(hexKey(address), version);
  }

  latestAccount(address: Uint8Array): AccountState | undefined {
    return this.accounts.latest(hexKey(address));
  }

  /** The MultisigAccount resource at `address`, at the latest version. */
  latestMultisig(address: Uint8Array): MultisigAccountState | undefined {
    return this.multisigAccounts.latest(hexKey(address));
  }

  module(address: Uint8Array, name: string, version: bigint): ModuleRecord | undefined {
    return this.modules.get(moduleStateKey(address, name), version);
  }

  /** The names of the modules at `address` (any that ever existed), sorted. */
  moduleNamesAt(address: Uint8Array): readonly string[] {
    return this.moduleNames.get(hexKey(address)) ?? [];
  }

  tableItem(handle: Uint8Array, key: Uint8Array, version: bigint): Uint8Array | undefined {
    return this.tableItems.get(tableItemKey(handle, key), version);
  }

  pruneBelow(oldestVersion: bigint): void {
    this.accounts.prune(oldestVersion);
    this.modules.prune(oldestVersion);
    this.tableItems.prune(oldestVersion);
    this.multisigAccounts.prune(oldestVersion);
  }

  private indexModule(address: Uint8Array, name: string): void {
    const key = hexKey(address);
    const names = this.moduleNames.get(key) ?? [];
    if (names.includes(name)) return;
    names.push(name);
    // Byte order of the names, as the state keys sort.
    names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.moduleNames.set(key, names);
  }
}

function tableItemKey(handle: Uint8Array, key: Uint8Array): string {
  return `${bytesToHex(handle)}:${bytesToHex(key)}`;
}
