// JSON bodies rendered once per immutable object. A module record or a committed transaction never
// changes once the ledger holds it (a new version writes a new record), so its JSON form is computed at
// first use and kept beside it, as bytes, and the reads that serve it (one module, the modules listing,
// transaction summaries) send the same bytes again instead of rendering the ABI or the hashes and
// encoding the text for every request.
// A listing (the modules of an account, an account's summaries) is the same page again for as long as no
// write touches it, which for 0x1's modules is forever: the last pages served are kept whole, and one is
// served again only when the engine's answer holds the very same objects in the same order.
// Keyed by identity in a WeakMap: the bytes live exactly as long as the object they render (the pruner
// drops records below the window, and their bytes go with them), so the memory they take is bounded by
// the ledger's own; an object a fault makes up for one request is a new key, rendered afresh, so cached
// bytes can never stand in for what the engine (or a fault wrapping it) answered.

import { BoundedMap } from "../../codec/bounded-map.ts";

/** A JSON body already serialised to UTF-8: sendJson sends its bytes as they are. */
export class JsonBytes {
  constructor(readonly bytes: Buffer) {}
}

/** `render`'s value as JSON bytes, computed once per object. */
export function renderedOnce<T extends object>(render: (value: T) => unknown): (value: T) => Buffer {
  const rendered = new WeakMap<T, Buffer>();
  return (value) => {
    let bytes = rendered.get(value);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(render(value)), "utf8");
      rendered.set(value, bytes);
    }
    return bytes;
  };
}

const OPEN = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]");

/** A JSON array of already rendered elements. */
export function jsonArray(elements: readonly Buffer[]): JsonBytes {
  const parts: Buffer[] = [OPEN];
  elements.forEach((element, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(element);
  });
  parts.push(CLOSE);
  return new JsonBytes(Buffer.concat(parts));
}

/** The JSON arrays of the last `maxPages` distinct pages, by a key naming the request (address, cursor, limit). */
export class RenderedPages<T extends object> {
  /** Set again on every use, so the page dropped is the least recently served. */
  readonly #pages: BoundedMap<string, { readonly elements: readonly T[]; readonly body: JsonBytes }>;

  constructor(
    private readonly render: (value: T) => Buffer,
    maxPages: number,
  ) {
    this.#pages = new BoundedMap(maxPages);
  }

  /** The page's body: the kept one when it holds exactly `elements`, else rendered (and kept, the oldest page dropped). */
  body(key: string, elements: readonly T[]): JsonBytes {
    const kept = this.#pages.get(key);
    const body = kept !== undefined && sameObjects(kept.elements, elements) ? kept.body : jsonArray(elements.map(this.render));
    this.#pages.set(key, { elements: kept?.body === body ? kept.elements : [...elements], body });
    return body;
  }
}

function sameObjects<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((element, i) => element === b[i]);
}
