// The values of the headers given with --header (or the config file) are secrets: a bearer token for
// a gateway, an API key. They are sent on every request and shown as *** everywhere else: curl lines
// and raw replays name the header with *** as its value, and any text a check records (a failure
// message quoting a body a gateway echoed) has the values replaced before it leaves the worker.

export const REDACTED = "***";

/** Header name (lower case) to value: sent on every request, never shown. */
export type SecretHeaders = Readonly<Record<string, string>>;

/** The same names with *** as every value, for a replay line a reader fills in. */
export function redactedHeaders(headers: SecretHeaders): Record<string, string> {
  return Object.fromEntries(Object.keys(headers).map((name) => [name, REDACTED]));
}

/**
 * The texts to hide: each whole value, and each word of it long enough to be a credential on its own
 * (the token of "Bearer <token>"), longest first so that a value is hidden whole before its parts.
 */
export function secretTexts(headers: SecretHeaders): string[] {
  const texts = new Set<string>();
  for (const value of Object.values(headers)) {
    if (value.trim() === "") continue;
    texts.add(value);
    for (const word of value.split(/\s+/)) if (word.length >= 8) texts.add(word);
  }
  return [...texts].sort((a, b) => b.length - a.length);
}

export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}

/** Every string inside `value` (objects, arrays) with the secrets replaced; other values as they are. */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redactText(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object" && !(v instanceof Uint8Array)) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  return walk(value) as T;
}
