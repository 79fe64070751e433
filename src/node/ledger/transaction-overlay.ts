// The writes of one transaction over the latest state: accounts and published modules. A payload
// writes into one overlay; when it fails the executor starts a fresh one, so none of its writes
// (balances moved, modules published) reach the ledger.

import { bytesToHex } from "@noble/hashes/utils.js";
import type { ModuleRecord } from "./api.ts";
import { moduleStateKey, type AccountState, type StateWrite } from "./state.ts";

export class TransactionOverlay {
  private readonly accounts = new Map<string, { address: Uint8Array; value: AccountState }>();
  private readonly modules = new Map<string, { address: Uint8Array; name: string; value: ModuleRecord }>();
  constructor(private readonly read: (address: Uint8Array) => AccountState | undefined) {}

  get(address: Uint8Array): AccountState | undefined {
    return this.accounts.get(bytesToHex(address))?.value ?? this.read(address);
  }

  set(address: Uint8Array, value: AccountState): void {
    this.accounts.set(bytesToHex(address), { address, value });
  }

  /** Publishes (or replaces) the module `address::name` at the transaction's version. */
  setModule(address: Uint8Array, name: string, value: ModuleRecord): void {
    this.modules.set(moduleStateKey(address, name), { address, name, value });
  }

  /** Accounts in the order first written, then modules in the order first written. */
  writes(): StateWrite[] {
    return [
      ...[...this.accounts.values()].map(({ address, value }) => ({ kind: "account" as const, address, value })),
      ...[...this.modules.values()].map(({ address, name, value }) => ({ kind: "module" as const, address, name, value })),
    ];
  }
}
