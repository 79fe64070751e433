// The codec: BCS, hashing, signing and the JSON forms, shared by the reference node and the harness.
//
// Naming: every BCS schema is exported as a value and a type of the same name. `SignedTransaction`
// the value is the @mysten/bcs schema (`.serialize(value).toBytes()`, `.parse(bytes)`);
// `SignedTransaction` the type is its decoded shape (`typeof SignedTransaction.$inferType`): enums as
// `{ Variant: value, $kind: "Variant" }`, u64/u128/u256 as bigint, bytes and addresses as Uint8Array.
// `XInput` types are what a schema accepts (no `$kind`; integers as bigint | number | decimal string).
// Read-response schemas carry a `Bcs` suffix (`TransactionSummaryBcs`) so they do not clash with the
// node's own types. Prefer `decodeBcs` / `decodeSignedTransaction` over `.parse`: they reject
// trailing bytes and throw CodecError.

export { CodecError } from "./errors.ts";
export { toHex, fromHex } from "./hex.ts";
export { ADDRESS_LENGTH, parseAddress, formatAddress, bytesEqual } from "./address.ts";
export {
  AccountAddress,
  U64,
  U64_MAX,
  U128,
  U256,
  Bytes,
  RawBytes,
  Identifier,
  isIdentifier,
  compareBytes,
  canonicalMap,
  type MapEntry,
} from "./bcs-primitives.ts";
export {
  ED25519_PUBLIC_KEY_LENGTH,
  ED25519_SIGNATURE_LENGTH,
  Ed25519PublicKey,
  Ed25519Signature,
  Secp256k1PublicKey,
  Secp256k1Signature,
  Secp256r1PublicKey,
  MultiEd25519PublicKey,
  MultiEd25519Signature,
  type MultiEd25519PublicKeyParts,
  type MultiEd25519SignatureParts,
  bitmapIndexes,
  AnyPublicKey,
  AnySignature,
  MultiKey,
  FunctionInfo,
  AbstractionAuthData,
  AccountAuthenticator,
  type AccountAuthenticatorInput,
  TransactionAuthenticator,
  type TransactionAuthenticatorInput,
} from "./bcs-auth.ts";
export {
  KeylessPublicKey,
  FederatedKeylessPublicKey,
  KeylessSignature,
  WebAuthnSignature,
  KeylessPublicKeyLayout,
  FederatedKeylessPublicKeyLayout,
  KeylessSignatureLayout,
  PartialAuthenticatorAssertionResponse,
} from "./bcs-opaque.ts";
export {
  TypeTag,
  type TypeTagInput,
  StructTag,
  type StructTagInput,
  ModuleId,
  EntryFunction,
  type EntryFunctionInput,
  TransactionArgument,
  Script,
  MultisigTransactionPayload,
  Multisig,
  TransactionExecutable,
  TransactionExtraConfig,
  TransactionPayloadInner,
  TransactionPayload,
  type TransactionPayloadInput,
  RawTransaction,
  type RawTransactionInput,
  SignedTransaction,
  type SignedTransactionInput,
  RawTransactionWithData,
  type RawTransactionWithDataInput,
  ModuleBytecodeBcs,
  ModuleMapBcs,
  moduleIdString,
  ReplayProtectorBcs,
  HashValueBcs,
  TransactionSummaryBcs,
  TransactionSummaryListBcs,
  GasEstimationBcs,
  HealthBcs,
  IndexResponseBcs,
  AccountResourceBcs,
  encodeBcs,
  decodeBcs,
  encodeSignedTransaction,
  decodeSignedTransaction,
  encodeRawTransaction,
  decodeRawTransaction,
  scriptArgumentBytes,
} from "./bcs.ts";
export {
  ExecutionStatusBcs,
  TransactionInfoBcs,
  ContractEventBcs,
  WriteSetBcs,
  TransactionBcs,
  TransactionOnChainDataBcs,
  TransactionDataBcs,
  type TransactionDataBcsInput,
} from "./bcs-transaction-data.ts";
export { DEFAULT_DOMAIN, sha3_256, domainPrefix, signingMessage, signingMessageWithData, transactionHash } from "./hash.ts";
export { ed25519PublicKey, ed25519Sign, ed25519Verify } from "./ed25519.ts";
export {
  secp256k1Sign,
  secp256k1Verify,
  secp256k1PublicKey,
  AuthenticationScheme,
  authenticationKey,
  ed25519AuthenticationKey,
  multiEd25519AuthenticationKey,
  singleKeyAuthenticationKey,
  multiKeyAuthenticationKey,
  authenticationKeyOf,
} from "./keys.ts";
export { webAuthnSign, webAuthnProblem, secp256r1PublicKey, MAX_WEBAUTHN_SIGNATURE_BYTES } from "./webauthn.ts";
export { verifyTransactionAuthenticator, type AuthenticatorVerdict, type ClaimedSigner, type SignerRole } from "./verify.ts";
export { Ed25519Account, signMultiAgentTransaction, signFeePayerTransaction } from "./account.ts";
export { MAX_TYPE_DEPTH, parseTypeTag, formatTypeTag, formatStructTag } from "./type-tag.ts";
export { encodeMoveValue, decodeMoveValue, type StructResolver } from "./move.ts";
export {
  accountAuthenticatorFromJson,
  accountAuthenticatorToJson,
  transactionAuthenticatorFromJson,
  transactionAuthenticatorToJson,
} from "./signature-json.ts";
export {
  signedTransactionFromJson,
  signedTransactionToJson,
  type FunctionParams,
  type JsonConversionOptions,
} from "./submission-json.ts";
export { WIRE_PROFILES, isProfileName, normalizeHeaderPrefix, type ProfileName, type WireProfile } from "./wire-profiles.ts";
export {
  MoveString,
  UPGRADE_POLICY,
  CopyableAny,
  ModuleMetadata,
  PackageDep,
  PackageMetadata,
  type PackageMetadataInput,
} from "./package-metadata.ts";
export {
  PACKAGE_BYTECODE_VERSION,
  minimalModule,
  packageMetadata,
  publishPackageTxnCall,
  publishPackageCall,
} from "./publish-package.ts";
export {
  deserializeModule,
  serializeModule,
  deserializeScript,
  serializeScript,
  passThroughCall,
  passThroughScript,
  scriptAbi,
  type CompiledScript,
  type ScriptCallTarget,
  bytecodeVersion,
  moduleAbi,
  structEnumAbis,
  abiOfBytecode,
  isExposed,
  metadataEntry,
  MalformedModule,
  UnsupportedModule,
  type CompiledModule,
  type SignatureToken,
  type StructHandle,
  type FunctionHandle,
  type StructDefinition,
  type FunctionDefinition,
  type ModuleHandle,
  type Ability,
  type Visibility,
  type MoveModuleAbi,
  type MoveFunctionAbi,
  type MoveStructAbi,
  type MoveStructEnumAbi,
  type MoveStructVariantAbi,
  type MoveFunctionGenericTypeParam,
} from "./move-module/index.ts";
