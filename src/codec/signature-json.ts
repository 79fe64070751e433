// Transaction and account signatures between their JSON form (the family's convention, §2.8.2; member names as
// Aptos's API gives them) and the BCS authenticators.
import { formatAddress } from "./address.ts";
import {
  AbstractionAuthData,
  AnyPublicKey,
  AnySignature,
  bitmapIndexes,
  MultiEd25519PublicKey,
  MultiEd25519Signature,
  type AccountAuthenticator,
  type AccountAuthenticatorInput,
  type TransactionAuthenticator,
  type TransactionAuthenticatorInput,
} from "./bcs-auth.ts";
import { decodeBcs, encodeBcs } from "./bcs.ts";
import { asCodecError, CodecError } from "./errors.ts";
import { toHex } from "./hex.ts";
import { readAddress, readArray, readHex, readObject, readQualifiedName, readString, readU8, type JsonObject } from "./json-read.ts";

type AnyPublicKeyInput = typeof AnyPublicKey.$inferInput;
type AnySignatureInput = typeof AnySignature.$inferInput;

const PUBLIC_KEY_TYPES = {
  ed25519: "Ed25519",
  secp256k1_ecdsa: "Secp256k1Ecdsa",
  secp256r1_ecdsa: "Secp256r1Ecdsa",
  keyless: "Keyless",
  federated_keyless: "FederatedKeyless",
} as const;
const SIGNATURE_TYPES = { ed25519: "Ed25519", secp256k1_ecdsa: "Secp256k1Ecdsa", web_authn: "WebAuthn", keyless: "Keyless" } as const;

/** JSON tag for a BCS variant name, and back. */
function jsonTypeOf<T extends Record<string, string>>(table: T, kind: string): string {
  const entry = Object.entries(table).find(([, value]) => value === kind);
  if (!entry) throw new CodecError(`no JSON type for ${kind}`);
  return entry[0];
}

function variantOf<T extends Record<string, string>>(table: T, type: string, path: string): T[keyof T] {
  if (!Object.hasOwn(table, type)) throw new CodecError(`${path}: unknown type ${JSON.stringify(type)}`);
  return table[type as keyof T];
}

// ---- JSON to BCS ----

function typedValue(value: unknown, path: string): { type: string; bytes: Uint8Array } {
  const object = readObject(value, path);
  return { type: readString(object.type, `${path}.type`), bytes: readHex(object.value, `${path}.value`) };
}

function anyPublicKeyFromJson(value: unknown, path: string): AnyPublicKeyInput {
  const { type, bytes } = typedValue(value, path);
  const key = { [variantOf(PUBLIC_KEY_TYPES, type, `${path}.type`)]: bytes } as AnyPublicKeyInput;
  asCodecError(path, () => encodeBcs(AnyPublicKey, key));
  return key;
}

function anySignatureFromJson(value: unknown, path: string): AnySignatureInput {
  const { type, bytes } = typedValue(value, path);
  const signature = { [variantOf(SIGNATURE_TYPES, type, `${path}.type`)]: bytes } as AnySignatureInput;
  asCodecError(path, () => encodeBcs(AnySignature, signature));
  return signature;
}

function ed25519FromJson(object: JsonObject, path: string) {
  return {
    public_key: readHex(object.public_key, `${path}.public_key`, [32]),
    signature: readHex(object.signature, `${path}.signature`, [64]),
  };
}

function multiEd25519FromJson(object: JsonObject, path: string) {
  const public_key = {
    public_keys: readArray(object.public_keys, `${path}.public_keys`).map((k, i) => readHex(k, `${path}.public_keys[${i}]`, [32])),
    threshold: readU8(object.threshold, `${path}.threshold`),
  };
  const signature = {
    signatures: readArray(object.signatures, `${path}.signatures`).map((s, i) => readHex(s, `${path}.signatures[${i}]`, [64])),
    bitmap: readHex(object.bitmap, `${path}.bitmap`, [4]),
  };
  asCodecError(path, () => encodeBcs(MultiEd25519PublicKey, public_key));
  asCodecError(path, () => encodeBcs(MultiEd25519Signature, signature));
  return { public_key, signature };
}

/** aptos-core builds the bitmap with BitVec::with_num_bits(number of keys); signatures go in index order. */
function multiKeyFromJson(object: JsonObject, path: string): AccountAuthenticatorInput {
  const public_keys = readArray(object.public_keys, `${path}.public_keys`).map((k, i) =>
    anyPublicKeyFromJson(k, `${path}.public_keys[${i}]`),
  );
  const indexed = readArray(object.signatures, `${path}.signatures`).map((entry, i) => {
    const item = readObject(entry, `${path}.signatures[${i}]`);
    const index = readU8(item.index, `${path}.signatures[${i}].index`);
    if (index >= public_keys.length) throw new CodecError(`${path}.signatures[${i}].index: ${index} names no public key`);
    return { index, signature: anySignatureFromJson(item.signature, `${path}.signatures[${i}].signature`) };
  });
  indexed.sort((a, b) => a.index - b.index);
  const bitmap = new Uint8Array(Math.ceil(public_keys.length / 8));
  for (const [i, { index }] of indexed.entries()) {
    if (indexed[i - 1]?.index === index) throw new CodecError(`${path}.signatures: index ${index} appears twice`);
    bitmap[index >> 3] = (bitmap[index >> 3] ?? 0) | (0x80 >> (index & 7));
  }
  return {
    MultiKey: {
      public_keys: { public_keys, signatures_required: readU8(object.signatures_required, `${path}.signatures_required`) },
      signatures: indexed.map((s) => s.signature),
      signatures_bitmap: bitmap,
    },
  };
}

/** The account signature kinds of §2.8.2, by their `type` tag. */
export function accountAuthenticatorFromJson(value: unknown, path: string): AccountAuthenticatorInput {
  const object = readObject(value, path);
  const type = readString(object.type, `${path}.type`);
  return accountOfType(type, object, path);
}

function accountOfType(type: string, object: JsonObject, path: string): AccountAuthenticatorInput {
  switch (type) {
    case "ed25519_signature":
      return { Ed25519: ed25519FromJson(object, path) };
    case "multi_ed25519_signature":
      return { MultiEd25519: multiEd25519FromJson(object, path) };
    case "single_key_signature":
      return {
        SingleKey: {
          public_key: anyPublicKeyFromJson(object.public_key, `${path}.public_key`),
          signature: anySignatureFromJson(object.signature, `${path}.signature`),
        },
      };
    case "multi_key_signature":
      return multiKeyFromJson(object, path);
    case "no_account_signature":
      return { NoAccountAuthenticator: true };
    case "abstraction_signature": {
      const { address, module, name } = readQualifiedName(object.function_info, `${path}.function_info`);
      const authData = readHex(object.auth_data, `${path}.auth_data`);
      return {
        Abstraction: {
          function_info: { module_address: address, module_name: module, function_name: name },
          auth_data: asCodecError(`${path}.auth_data`, () => decodeBcs(AbstractionAuthData, authData)),
        },
      };
    }
    default:
      throw new CodecError(`${path}.type: unknown account signature type ${JSON.stringify(type)}`);
  }
}

/** `single_sender` spreads the account signature's members beside its own tag; the members tell the kind. */
function singleSenderKind(object: JsonObject): string {
  if ("function_info" in object) return "abstraction_signature";
  if ("signatures_required" in object) return "multi_key_signature";
  if ("threshold" in object) return "multi_ed25519_signature";
  if ("public_key" in object) return typeof object.public_key === "string" ? "ed25519_signature" : "single_key_signature";
  return "no_account_signature";
}

function secondariesFromJson(object: JsonObject, path: string) {
  const addresses = readArray(object.secondary_signer_addresses, `${path}.secondary_signer_addresses`).map((a, i) =>
    readAddress(a, `${path}.secondary_signer_addresses[${i}]`),
  );
  const signers = readArray(object.secondary_signers, `${path}.secondary_signers`).map((s, i) =>
    accountAuthenticatorFromJson(s, `${path}.secondary_signers[${i}]`),
  );
  if (addresses.length !== signers.length)
    throw new CodecError(`${path}: ${addresses.length} secondary signer addresses but ${signers.length} secondary signers`);
  return { secondary_signer_addresses: addresses, secondary_signers: signers };
}

/** The signature variants of the family's nodes, by their `type` tag. */
export function transactionAuthenticatorFromJson(value: unknown, path: string): TransactionAuthenticatorInput {
  const object = readObject(value, path);
  const type = readString(object.type, `${path}.type`);
  switch (type) {
    case "ed25519_signature":
      return { Ed25519: ed25519FromJson(object, path) };
    case "multi_ed25519_signature":
      return { MultiEd25519: multiEd25519FromJson(object, path) };
    case "multi_agent_signature":
      return {
        MultiAgent: { sender: accountAuthenticatorFromJson(object.sender, `${path}.sender`), ...secondariesFromJson(object, path) },
      };
    case "fee_payer_signature":
      return {
        FeePayer: {
          sender: accountAuthenticatorFromJson(object.sender, `${path}.sender`),
          ...secondariesFromJson(object, path),
          fee_payer_address: readAddress(object.fee_payer_address, `${path}.fee_payer_address`),
          fee_payer_signer: accountAuthenticatorFromJson(object.fee_payer_signer, `${path}.fee_payer_signer`),
        },
      };
    case "single_sender":
      return { SingleSender: { sender: accountOfType(singleSenderKind(object), object, path) } };
    case "no_account_signature":
      return { SingleSender: { sender: { NoAccountAuthenticator: true } } };
    default:
      throw new CodecError(`${path}.type: unknown signature type ${JSON.stringify(type)}`);
  }
}

// ---- BCS to JSON ----

const typed = (type: string, bytes: Uint8Array) => ({ type, value: toHex(bytes) });

function anyPublicKeyToJson(key: AnyPublicKey) {
  const type = jsonTypeOf(PUBLIC_KEY_TYPES, key.$kind);
  switch (key.$kind) {
    case "Ed25519":
      return typed(type, key.Ed25519);
    case "Secp256k1Ecdsa":
      return typed(type, key.Secp256k1Ecdsa);
    case "Secp256r1Ecdsa":
      return typed(type, key.Secp256r1Ecdsa);
    case "Keyless":
      return typed(type, key.Keyless);
    case "FederatedKeyless":
      return typed(type, key.FederatedKeyless);
  }
}

function anySignatureToJson(signature: AnySignature) {
  const type = jsonTypeOf(SIGNATURE_TYPES, signature.$kind);
  switch (signature.$kind) {
    case "Ed25519":
      return typed(type, signature.Ed25519);
    case "Secp256k1Ecdsa":
      return typed(type, signature.Secp256k1Ecdsa);
    case "WebAuthn":
      return typed(type, signature.WebAuthn);
    case "Keyless":
      return typed(type, signature.Keyless);
  }
}

export function accountAuthenticatorToJson(auth: AccountAuthenticator): JsonObject {
  switch (auth.$kind) {
    case "Ed25519":
      return { type: "ed25519_signature", public_key: toHex(auth.Ed25519.public_key), signature: toHex(auth.Ed25519.signature) };
    case "MultiEd25519": {
      const { public_key, signature } = auth.MultiEd25519;
      return {
        type: "multi_ed25519_signature",
        public_keys: public_key.public_keys.map(toHex),
        signatures: signature.signatures.map(toHex),
        threshold: public_key.threshold,
        bitmap: toHex(signature.bitmap),
      };
    }
    case "SingleKey":
      return {
        type: "single_key_signature",
        public_key: anyPublicKeyToJson(auth.SingleKey.public_key),
        signature: anySignatureToJson(auth.SingleKey.signature),
      };
    case "MultiKey": {
      const { public_keys, signatures, signatures_bitmap } = auth.MultiKey;
      const indexes = bitmapIndexes(signatures_bitmap);
      return {
        type: "multi_key_signature",
        public_keys: public_keys.public_keys.map(anyPublicKeyToJson),
        signatures: signatures.map((signature, i) => ({ index: indexes[i] ?? i, signature: anySignatureToJson(signature) })),
        signatures_required: public_keys.signatures_required,
      };
    }
    case "NoAccountAuthenticator":
      return { type: "no_account_signature" };
    case "Abstraction": {
      const { function_info: f, auth_data } = auth.Abstraction;
      return {
        type: "abstraction_signature",
        function_info: `${formatAddress(f.module_address)}::${f.module_name}::${f.function_name}`,
        auth_data: toHex(encodeBcs(AbstractionAuthData, auth_data)),
      };
    }
  }
}

export function transactionAuthenticatorToJson(auth: TransactionAuthenticator): JsonObject {
  switch (auth.$kind) {
    case "Ed25519":
      return accountAuthenticatorToJson({ Ed25519: auth.Ed25519, $kind: "Ed25519" });
    case "MultiEd25519":
      return accountAuthenticatorToJson({ MultiEd25519: auth.MultiEd25519, $kind: "MultiEd25519" });
    case "MultiAgent":
      return {
        type: "multi_agent_signature",
        sender: accountAuthenticatorToJson(auth.MultiAgent.sender),
        secondary_signer_addresses: auth.MultiAgent.secondary_signer_addresses.map(formatAddress),
        secondary_signers: auth.MultiAgent.secondary_signers.map(accountAuthenticatorToJson),
      };
    case "FeePayer":
      return {
        type: "fee_payer_signature",
        sender: accountAuthenticatorToJson(auth.FeePayer.sender),
        secondary_signer_addresses: auth.FeePayer.secondary_signer_addresses.map(formatAddress),
        secondary_signers: auth.FeePayer.secondary_signers.map(accountAuthenticatorToJson),
        fee_payer_address: formatAddress(auth.FeePayer.fee_payer_address),
        fee_payer_signer: accountAuthenticatorToJson(auth.FeePayer.fee_payer_signer),
      };
    case "SingleSender": {
      const sender = auth.SingleSender.sender;
      if (sender.$kind === "NoAccountAuthenticator") return { type: "no_account_signature" };
      const { type: _inner, ...members } = accountAuthenticatorToJson(sender);
      return { type: "single_sender", ...members };
    }
  }
}
