// Builders of transactions with the Aptos TS SDK (an independent implementation) for the codec's
// cross-checks: every payload variant, and every authenticator variant signed the SDK's way.
import * as sdk from "@aptos-labs/ts-sdk";

export const CHAIN_ID = 4;

/** Deterministic private keys: 32 bytes of (seed, seed+1, ...). */
export function keyBytes(seed: number): Uint8Array {
  return Uint8Array.from({ length: 32 }, (_, i) => (seed * 31 + i + 1) & 0xff);
}

export const ed25519Key = (seed: number) => new sdk.Ed25519PrivateKey(keyBytes(seed), false);
export const secp256k1Key = (seed: number) => new sdk.Secp256k1PrivateKey(keyBytes(seed), false);
export const legacyAccount = (seed: number) => sdk.Account.fromPrivateKey({ privateKey: ed25519Key(seed), legacy: true });

export const address = (hex: string) => sdk.AccountAddress.from(hex, { maxMissingChars: 63 });

function transferFunction(): sdk.EntryFunction {
  return sdk.EntryFunction.build(
    "0x1::coin",
    "transfer",
    [sdk.parseTypeTag("0x1::aptos_coin::AptosCoin")],
    [address("0xcafe"), new sdk.U64(1234n)],
  );
}

function richEntryFunction(): sdk.EntryFunction {
  return sdk.EntryFunction.build(
    "0x00000000000000000000000000000000000000000000000000000000000000ab::things",
    "do_all",
    [sdk.parseTypeTag("vector<0x1::string::String>"), sdk.parseTypeTag("u16")],
    [
      new sdk.Bool(true),
      new sdk.U8(7),
      new sdk.U128(2n ** 100n),
      sdk.MoveVector.U8([1, 2, 3]),
      new sdk.MoveString("héllo"),
      new sdk.MoveOption(new sdk.U64(9n)),
    ],
  );
}

function script(): sdk.Script {
  return new sdk.Script(
    Uint8Array.from([0xa1, 0x1c, 0xeb, 0x0b, 7, 0, 0, 0]),
    [sdk.parseTypeTag("u8")],
    [
      new sdk.U8(1),
      new sdk.U16(2),
      new sdk.U32(3),
      new sdk.U64(4n),
      new sdk.U128(5n),
      new sdk.U256(2n ** 200n),
      new sdk.Bool(false),
      address("0x1"),
      sdk.MoveVector.U8([9, 8]),
      new sdk.Serialized(new sdk.MoveString("s").bcsToBytes()),
    ],
  );
}

const extra = (multisig?: string, nonce?: bigint) => new sdk.TransactionExtraConfigV1(multisig ? address(multisig) : undefined, nonce);

/** Every payload variant the SDK can build (ModuleBundle it cannot: it is deprecated). */
export const SDK_PAYLOADS: Record<string, () => sdk.TransactionPayload> = {
  entry_function: () => new sdk.TransactionPayloadEntryFunction(transferFunction()),
  entry_function_rich_args: () => new sdk.TransactionPayloadEntryFunction(richEntryFunction()),
  script: () => new sdk.TransactionPayloadScript(script()),
  multisig_with_payload: () =>
    new sdk.TransactionPayloadMultiSig(new sdk.MultiSig(address("0xbeef"), new sdk.MultiSigTransactionPayload(transferFunction()))),
  multisig_without_payload: () => new sdk.TransactionPayloadMultiSig(new sdk.MultiSig(address("0xbeef"))),
  orderless_entry_function: () =>
    new sdk.TransactionInnerPayloadV1(new sdk.TransactionExecutableEntryFunction(transferFunction()), extra(undefined, 77n)),
  orderless_script: () =>
    new sdk.TransactionInnerPayloadV1(new sdk.TransactionExecutableScript(script()), extra(undefined, 2n ** 64n - 1n)),
  orderless_multisig_empty: () => new sdk.TransactionInnerPayloadV1(new sdk.TransactionExecutableEmpty(), extra("0xbeef", 5n)),
  payload_v1_without_nonce: () =>
    new sdk.TransactionInnerPayloadV1(new sdk.TransactionExecutableEntryFunction(transferFunction()), extra()),
};

export function sdkRawTransaction(sender: sdk.AccountAddress, payload: sdk.TransactionPayload, sequence = 42n): sdk.RawTransaction {
  return new sdk.RawTransaction(sender, sequence, payload, 200_000n, 100n, 1_900_000_000n, new sdk.ChainId(CHAIN_ID));
}

export interface SdkSigned {
  /** The SDK's BCS bytes of the signed transaction. */
  bytes: Uint8Array;
  /** What the SDK hands to generateUserTransactionHash / generateSignedTransaction. */
  submission: sdk.InputSubmitTransactionData;
  /** The message(s) signed, the SDK's way. */
  signingMessage: Uint8Array;
  /** Signers with the authentication keys the SDK derives for them. */
  signers: { address: sdk.AccountAddress; authKey: Uint8Array }[];
  /** Whether our codec can verify every signature (false for keyless, WebAuthn, abstraction...). */
  verifiable: boolean;
}

type SingleSigner = {
  accountAddress: sdk.AccountAddress;
  publicKey: { authKey(): sdk.AuthenticationKey };
  signTransactionWithAuthenticator(t: sdk.AnyRawTransaction): sdk.AccountAuthenticator;
};

function single(signer: SingleSigner, payload: sdk.TransactionPayload): SdkSigned {
  const transaction = new sdk.SimpleTransaction(sdkRawTransaction(signer.accountAddress, payload));
  const senderAuthenticator = signer.signTransactionWithAuthenticator(transaction);
  const submission = { transaction, senderAuthenticator };
  return {
    bytes: sdk.generateSignedTransaction(submission),
    submission,
    signingMessage: sdk.generateSigningMessageForTransaction(transaction),
    signers: [{ address: signer.accountAddress, authKey: signer.publicKey.authKey().toUint8Array() }],
    verifiable: true,
  };
}

/** A transaction whose sender authenticator we build by hand (variants the SDK cannot sign offline). */
function handAuthenticated(authenticator: sdk.AccountAuthenticator, payload: sdk.TransactionPayload): SdkSigned {
  const transaction = new sdk.SimpleTransaction(sdkRawTransaction(address("0x7"), payload));
  const submission = { transaction, senderAuthenticator: authenticator };
  return {
    bytes: sdk.generateSignedTransaction(submission),
    submission,
    signingMessage: sdk.generateSigningMessageForTransaction(transaction),
    signers: [],
    verifiable: false,
  };
}

function multiEd25519Account(): sdk.MultiEd25519Account {
  const keys = [ed25519Key(11), ed25519Key(12), ed25519Key(13)];
  const publicKey = new sdk.MultiEd25519PublicKey({ publicKeys: keys.map((k) => k.publicKey()), threshold: 2 });
  return new sdk.MultiEd25519Account({ publicKey, signers: [keys[0]!, keys[2]!] });
}

function multiKeyAccount(): sdk.MultiKeyAccount {
  const edSigner = new sdk.SingleKeyAccount({ privateKey: ed25519Key(21) });
  const k1Signer = new sdk.SingleKeyAccount({ privateKey: secp256k1Key(22) });
  const other = new sdk.SingleKeyAccount({ privateKey: ed25519Key(23) });
  const multiKey = new sdk.MultiKey({
    publicKeys: [edSigner.publicKey, other.publicKey, k1Signer.publicKey],
    signaturesRequired: 2,
  });
  return new sdk.MultiKeyAccount({ multiKey, signers: [k1Signer, edSigner] });
}

function keylessPublicKey(): sdk.KeylessPublicKey {
  return new sdk.KeylessPublicKey("https://accounts.google.com", new Uint8Array(32).fill(5));
}

export const SDK_AUTHENTICATORS: Record<string, (payload: sdk.TransactionPayload) => SdkSigned> = {
  ed25519: (p) => single(legacyAccount(1), p),
  multi_ed25519: (p) => single(multiEd25519Account(), p),
  single_key_ed25519: (p) => single(new sdk.SingleKeyAccount({ privateKey: ed25519Key(2) }), p),
  single_key_secp256k1: (p) => single(new sdk.SingleKeyAccount({ privateKey: secp256k1Key(3) }), p),
  multi_key: (p) => single(multiKeyAccount(), p),
  multi_agent: (p) => {
    const sender = legacyAccount(4);
    const secondaries = [new sdk.SingleKeyAccount({ privateKey: secp256k1Key(5) }), multiEd25519Account()];
    const transaction = new sdk.MultiAgentTransaction(
      sdkRawTransaction(sender.accountAddress, p),
      secondaries.map((s) => s.accountAddress),
    );
    const submission = {
      transaction,
      senderAuthenticator: sender.signTransactionWithAuthenticator(transaction),
      additionalSignersAuthenticators: secondaries.map((s) => s.signTransactionWithAuthenticator(transaction)),
    };
    return {
      bytes: sdk.generateSignedTransaction(submission),
      submission,
      signingMessage: sdk.generateSigningMessageForTransaction(transaction),
      signers: [sender, ...secondaries].map((s) => ({ address: s.accountAddress, authKey: s.publicKey.authKey().toUint8Array() })),
      verifiable: true,
    };
  },
  // The SDK's sponsored flow: the sender signs with fee payer 0x0, then the fee payer signs with its address set.
  fee_payer: (p) => {
    const sender = new sdk.SingleKeyAccount({ privateKey: ed25519Key(6) });
    const feePayer = legacyAccount(7);
    const transaction = new sdk.SimpleTransaction(sdkRawTransaction(sender.accountAddress, p), sdk.AccountAddress.ZERO);
    const senderAuthenticator = sender.signTransactionWithAuthenticator(transaction);
    transaction.feePayerAddress = feePayer.accountAddress;
    const feePayerAuthenticator = feePayer.signTransactionWithAuthenticator(transaction);
    const submission = { transaction, senderAuthenticator, feePayerAuthenticator };
    return {
      bytes: sdk.generateSignedTransaction(submission),
      submission,
      signingMessage: sdk.generateSigningMessageForTransaction(transaction),
      signers: [sender, feePayer].map((s) => ({ address: s.accountAddress, authKey: s.publicKey.authKey().toUint8Array() })),
      verifiable: true,
    };
  },
  single_key_keyless: (p) =>
    handAuthenticated(
      new sdk.AccountAuthenticatorSingleKey(
        new sdk.AnyPublicKey(keylessPublicKey()),
        new sdk.AnySignature(sdk.KeylessSignature.getSimulationSignature()),
      ),
      p,
    ),
  single_key_federated_keyless: (p) =>
    handAuthenticated(
      new sdk.AccountAuthenticatorSingleKey(
        new sdk.AnyPublicKey(new sdk.FederatedKeylessPublicKey(address("0x1234"), keylessPublicKey())),
        new sdk.AnySignature(sdk.KeylessSignature.getSimulationSignature()),
      ),
      p,
    ),
  single_key_webauthn: (p) =>
    handAuthenticated(
      new sdk.AccountAuthenticatorSingleKey(
        new sdk.AnyPublicKey(sdk.Secp256r1PrivateKey.generate().publicKey()),
        new sdk.AnySignature(
          new sdk.WebAuthnSignature(new Uint8Array(64).fill(3), new Uint8Array(37).fill(4), new Uint8Array(90).fill(0x7b)),
        ),
      ),
      p,
    ),
  abstraction: (p) =>
    handAuthenticated(
      new sdk.AccountAuthenticatorAbstraction(
        "0x1::permissioned_delegation::authenticate",
        new Uint8Array(32).fill(8),
        new Uint8Array(16).fill(9),
        new Uint8Array(33).fill(10),
      ),
      p,
    ),
  no_account: (p) => handAuthenticated(new sdk.AccountAuthenticatorNoAccountAuthenticator(), p),
};
