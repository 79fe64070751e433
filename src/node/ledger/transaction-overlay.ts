// The writes of one transaction over the latest state: accounts, multisig accounts and published modules. A payload
// writes into one overlay; when it fails the executor starts a fresh one, so none of its writes
// (balances moved, modules published) reach the ledger.

import { bytesToHex } from "@noble/hashes/utils.js";
import type { ModuleRecord } from "./api.ts";
import { moduleStateKey, type AccountState, type MultisigAccountState, type StateWrite } from "./state.ts";

export class TransactionOverlay {
  private readonly accounts = new Map<string, { address: Uint8Array; value: AccountState }>();
  private readonly modules = new Map<string, { address: Uint8Array; name: string; value: ModuleRecord }>();
  private readonly multisigAccounts = new Map<string, { address: Uint8Array; value: MultisigAccountState }>();
  constructor(
    private readonly read: (address: Uint8Array) => AccountState | undefined,
    private readonly readMultisig: (address: Uint8Array) => MultisigAccountState | undefined = () => undefined,
  ) {}

  get(address: Uint8Array): AccountState | undefined {
    return this.accounts.get(bytesToHex(address))?.value ?? this.read(address);
  }

  set(address: Uint8Array, value: AccountState): void {
    this.accounts.set(bytesToHex(address), { address, value });
  }

  getMultisig(address: Uint8Array): MultisigAccountState | undefined {
    return this.multisigAccounts.get(bytesToHex(address))?.value ?? this.readMultisig(address);
  }

  setMultisig(address: Uint8Array, value: MultisigAccountState): void {
    this.multisigAccounts.set(bytesToHex(address), { address, value });
  }

  /** An overlay over this one: its writes reach this one only when merged (mergeFrom). */
  child(): TransactionOverlay {
    return new TransactionOverlay(
      (address) => this.get(address),
      (address) => this.getMultisig(address),
    );
  }

  /** Takes the writes of a child overlay. */
  mergeFrom(child: TransactionOverlay): void {
    for (const write of child.writes()) {
      if (write.kind === "account") this.set(write.address, write.value);
      else if (write.kind === "module") this.setModule(write.address, write.name, write.value);
      else if (write.kind === "multisig") this.setMultisig(write.address, write.value);
    }
  }

  /** Publishes (or replaces) the module `address::name` at the transaction's version. */
  setModule(address: Uint8Array, name: string, value: ModuleRecord): void {
    this.modules.set(moduleStateKey(address, name), { address, name, value });
  }

  /** Accounts in the order first written, then multisig accounts, then modules, each in the order first written. */
  writes(): StateWrite[] {
    return [
      ...[...this.accounts.values()].map(({ address, value }) => ({ kind: "account" as const, address, value })),
      ...[...this.multisigAccounts.values()].map(({ address, value }) => ({ kind: "multisig" as const, address, value })),
      ...[...this.modules.values()].map(({ address, name, value }) => ({ kind: "module" as const, address, name, value })),
    ];
  }
}
