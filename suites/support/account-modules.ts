// What the §4.4 and §4.5 suites share: which account and module they read (the fixtures' moduleAccount
// and moduleName, or without fixtures 0x1 and the first module its listing returns), and the forms an
// address may take in a path (§2.1).

import { parseAddress } from "../../src/codec/index.ts";
import { CheckNotApplicable, type CheckContext } from "../../src/harness/index.ts";

/** The account every Aptos-style chain holds framework modules at. */
export const FRAMEWORK_ACCOUNT = "0x1";

/** A module record as the family's nodes name its members (validated against the contract before use). */
export interface ModuleRecordJson {
  readonly bytecode: string;
  readonly abi?: { readonly address: string; readonly name: string };
}

/** The fixtures' moduleAccount, else 0x1. */
export function moduleAccount(t: CheckContext): string {
  return t.fixtures.moduleAccount ?? FRAMEWORK_ACCOUNT;
}

export interface ModuleUnderTest {
  readonly account: string;
  readonly name: string;
}

/**
 * The module the §4.4 checks read: the fixtures' moduleAccount/moduleName, or the first module the
 * account's listing returns. Ends the check not_applicable when no module can be named that way.
 */
export async function moduleUnderTest(t: CheckContext): Promise<ModuleUnderTest> {
  const account = moduleAccount(t);
  if (t.fixtures.moduleName !== undefined) return { account, name: t.fixtures.moduleName };
  const { name, status } = await firstModuleName(t, account);
  if (name === undefined) {
    throw new CheckNotApplicable(
      `needs fixture "moduleName" (the fallback, the first module GET /accounts/${account}/modules?limit=1 lists, gave none: status ${status})`,
    );
  }
  return { account, name };
}

/** The name of the first module the account's listing returns (undefined unless a 200 names one), and the listing's status. */
export async function firstModuleName(t: CheckContext, account: string): Promise<{ name: string | undefined; status: number }> {
  const res = await t.request({ path: `/accounts/${account}/modules`, query: { limit: 1 } });
  const first = Array.isArray(res.json) ? (res.json[0] as ModuleRecordJson | undefined) : undefined;
  const name = res.status === 200 ? first?.abi?.name : undefined;
  return { name: typeof name === "string" && name !== "" ? name : undefined, status: res.status };
}

/** The address as 64 hex digits without 0x (the account string is a valid Address). */
export function longDigits(address: string): string {
  return Buffer.from(parseAddress(address, { prefixOptional: true })).toString("hex");
}

/** The address's digits without 0x and without leading zeros ("1" for 0x1; "0" for 0x0). */
export function shortestDigits(address: string): string {
  return longDigits(address).replace(/^0+/, "") || "0";
}

/**
 * A form §2.1 allows in a path for the same address, besides the 0x-prefixed one a check starts from.
 * "unprefixed-short" (without 0x and with fewer than 64 digits) is judged apart from the others: aptos-core
 * refuses it (baselines/aptos-core.txt), and a baseline listing it must not mask the other forms. A form
 * the address does not have (no leading zero to strip) is undefined.
 */
export interface AddressPathForm {
  readonly variant: string;
  readonly kind: "unprefixed-short" | "other";
  readonly form: (address: string) => string | undefined;
}

export const ADDRESS_PATH_FORMS: readonly AddressPathForm[] = [
  {
    variant: "without 0x, leading zeros stripped",
    kind: "unprefixed-short",
    form: (address) => (shortestDigits(address).length < 64 ? shortestDigits(address) : undefined),
  },
  {
    variant: "with 0x, leading zeros stripped",
    kind: "other",
    form: (address) => (shortestDigits(address).length < 64 ? `0x${shortestDigits(address)}` : undefined),
  },
  { variant: "64 digits with 0x", kind: "other", form: (address) => `0x${longDigits(address)}` },
  { variant: "64 digits without 0x", kind: "other", form: (address) => longDigits(address) },
];

/** Malformed path addresses: a non-hex digit, and one hex digit more than 32 bytes hold. */
export const MALFORMED_ADDRESSES: readonly { readonly variant: string; readonly value: string }[] = [
  { variant: "non-hex digit", value: "0xzz" },
  { variant: "65 hex digits", value: `0x1${"0".repeat(64)}` },
];

/** Malformed u64 query values (§2.1). */
export const MALFORMED_U64: readonly { readonly variant: string; readonly value: string }[] = [
  { variant: "not digits", value: "abc" },
  { variant: "negative", value: "-1" },
  { variant: "2^64", value: "18446744073709551616" },
];

/** The addresses two records name are the same account (formatting may differ: 0x1 vs 64 digits). */
export function sameAddress(a: unknown, b: string): boolean {
  if (typeof a !== "string") return false;
  try {
    return Buffer.from(parseAddress(a)).equals(Buffer.from(parseAddress(b, { prefixOptional: true })));
  } catch {
    return false;
  }
}
