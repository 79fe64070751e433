// A header's field value without the optional whitespace around it. RFC 9112 §5.1: "A field value does
// not include leading or trailing whitespace" (OWS: SP and HTAB only; RFC 9110 §5.6.3). undici's parser
// drops the leading OWS and keeps the trailing; anything else (VT, FF, NBSP) is part of the value, the
// node's to answer for, and stays.

const SP = 0x20;
const HTAB = 0x09;

function isOws(code: number): boolean {
  return code === SP || code === HTAB;
}

export function withoutOws(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isOws(value.charCodeAt(start))) start += 1;
  while (end > start && isOws(value.charCodeAt(end - 1))) end -= 1;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}
