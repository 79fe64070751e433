// Media type selection for 200 bodies (the family's convention): BCS when the client prefers application/x-bcs over
// application/json, JSON in every other case (no 406). As in the Aptos family, only these two media
// types count; wildcards and other types select nothing and fall back to JSON.

export const BCS_MEDIA_TYPE = "application/x-bcs";
const JSON_MEDIA_TYPE = "application/json";

interface MediaRange {
  readonly type: string;
  readonly q: number;
}

function parseMediaRange(part: string): MediaRange {
  const [type = "", ...params] = part.split(";").map((piece) => piece.trim());
  let q = 1;
  for (const param of params) {
    const match = /^q\s*=\s*([0-9.]+)$/i.exec(param);
    if (match?.[1] !== undefined) {
      const value = Number(match[1]);
      if (Number.isFinite(value)) q = value;
    }
  }
  return { type: type.toLowerCase(), q };
}

export function prefersBcs(accept: string | string[] | undefined): boolean {
  const header = Array.isArray(accept) ? accept.join(",") : (accept ?? "");
  let best: MediaRange | undefined;
  for (const range of header.split(",").map(parseMediaRange)) {
    if (range.type !== BCS_MEDIA_TYPE && range.type !== JSON_MEDIA_TYPE) continue;
    if (range.q <= 0) continue;
    if (best === undefined || range.q > best.q) best = range;
  }
  return best?.type === BCS_MEDIA_TYPE;
}
