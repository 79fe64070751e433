// Replay protection of orderless transactions (AIP-123): a sender's nonce may not be used twice while a
// transaction carrying it could still be valid, that is until its expiration time.

import { bytesToHex } from "@noble/hashes/utils.js";

export class NonceRegistry {
  /** sender hex -> nonce -> expiration (seconds). */
  private readonly used = new Map<string, Map<bigint, bigint>>();

  /** A registry of the same nonces, independent of this one from now on. */
  copy(): NonceRegistry {
    const copy = new NonceRegistry();
    for (const [sender, nonces] of this.used) copy.used.set(sender, new Map(nonces));
    return copy;
  }

  isUsed(sender: Uint8Array, nonce: bigint, nowSecs: bigint): boolean {
    const expiration = this.used.get(bytesToHex(sender))?.get(nonce);
    return expiration !== undefined && expiration > nowSecs;
  }

  record(sender: Uint8Array, nonce: bigint, expirationSecs: bigint): void {
    const key = bytesToHex(sender);
    const nonces = this.used.get(key) ?? new Map<bigint, bigint>();
    nonces.set(nonce, expirationSecs);
    this.used.set(key, nonces);
  }

  /** Forgets the nonces whose transactions have expired: they can no longer be replayed anyway. */
  forgetExpired(nowSecs: bigint): void {
    for (const [sender, nonces] of this.used) {
      for (const [nonce, expiration] of nonces) if (expiration <= nowSecs) nonces.delete(nonce);
      if (nonces.size === 0) this.used.delete(sender);
    }
  }
}
