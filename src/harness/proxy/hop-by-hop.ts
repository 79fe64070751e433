// The header fields a proxy does not pass on: those of one connection rather than of the message, and
// those a sender sets for a message of its own. The forwarding core (forward.ts) drops them both ways;
// the command line refuses them in --header (src/cli/request-headers.ts), since the client sets them.

/**
 * The fields of one connection, not of the message (RFC 9110 §7.6.1), and Trailer, which announces
 * trailer fields that a proxy reading bodies whole does not pass on. So are the fields that a
 * Connection field names.
 */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  "transfer-encoding",
  "connection",
  "keep-alive",
  "proxy-connection",
  "upgrade",
  "te",
  "trailer",
]);

/** Fields a sender sets for its own message: where it goes, how its body is framed, whether it waits for a 100 (Continue). */
export const SENDER_SET: ReadonlySet<string> = new Set(["host", "content-length", "expect"]);

/** Credentials and challenges for a proxy itself, never for the node behind it (RFC 9110 §11.7). */
const FOR_THE_PROXY: ReadonlySet<string> = new Set(["proxy-authorization", "proxy-authenticate"]);

/** Header lines in order, each as [name, value] as its sender spelled them. */
export type HeaderLines = readonly (readonly [string, string])[];

/**
 * The lines a proxy passes on: without the hop-by-hop fields, those the Connection field names, those
 * for the proxy itself, and those in `alsoDropped` (lower case).
 */
export function endToEnd(lines: HeaderLines, alsoDropped: ReadonlySet<string> = new Set()): [string, string][] {
  const named = new Set<string>();
  for (const [name, value] of lines)
    if (name.toLowerCase() === "connection") for (const token of value.split(",")) named.add(token.trim().toLowerCase());
  return lines
    .filter(([name]) => {
      const lower = name.toLowerCase();
      return !HOP_BY_HOP.has(lower) && !FOR_THE_PROXY.has(lower) && !named.has(lower) && !alsoDropped.has(lower);
    })
    .map(([name, value]) => [name, value]);
}
