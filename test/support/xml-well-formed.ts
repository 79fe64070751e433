// A strict check that a document the suite writes (junit.xml) is well-formed XML 1.0, without an XML
// library: one root, every tag closed in order, attributes quoted once each, only the five predefined
// entities and character references, no raw `<` or `&` in text or attribute values, no character XML 1.0
// cannot hold. Enough for the documents the reporters write (no DTD, CDATA, comments or processing
// instructions beyond the XML declaration).

import { expect } from "vitest";

const NAME = "[A-Za-z_:][A-Za-z0-9_:.-]*";
const TEXT = /^(?:[^<&]|&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)*$/;
const ATTRIBUTE = new RegExp(`\\s+(${NAME})="([^"<]*)"`, "y");

export function xmlProblems(doc: string): string[] {
  const problems: string[] = [];
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(doc)) problems.push("a character XML 1.0 cannot hold");
  const body = doc.replace(/^<\?xml [^?]*\?>\s*/, "");
  const stack: string[] = [];
  let roots = 0;
  let i = 0;
  while (i < body.length) {
    const lt = body.indexOf("<", i);
    const text = body.slice(i, lt < 0 ? body.length : lt);
    if (!TEXT.test(text)) problems.push(`bad text near ${JSON.stringify(text.slice(0, 40))}`);
    if (stack.length === 0 && text.trim() !== "") problems.push("text outside the root");
    if (lt < 0) break;
    const close = new RegExp(`^</(${NAME})\\s*>`).exec(body.slice(lt));
    if (close) {
      if (stack.pop() !== close[1]) problems.push(`</${close[1]}> closes nothing open`);
      i = lt + close[0].length;
      continue;
    }
    const open = new RegExp(`^<(${NAME})`).exec(body.slice(lt));
    if (!open) {
      problems.push(`a bad tag near ${JSON.stringify(body.slice(lt, lt + 40))}`);
      break;
    }
    let j = lt + open[0].length;
    const seen = new Set<string>();
    for (;;) {
      ATTRIBUTE.lastIndex = j;
      const a = ATTRIBUTE.exec(body);
      if (!a) break;
      if (seen.has(a[1] ?? "")) problems.push(`attribute ${a[1]} twice`);
      seen.add(a[1] ?? "");
      if (!TEXT.test(a[2] ?? "")) problems.push(`bad attribute value ${JSON.stringify(a[2]?.slice(0, 40))}`);
      j = ATTRIBUTE.lastIndex;
    }
    const end = /^\s*(\/?)>/.exec(body.slice(j));
    if (!end) {
      problems.push(`an unterminated tag <${open[1]}`);
      break;
    }
    if (stack.length === 0) roots += 1;
    if (end[1] !== "/") stack.push(open[1] ?? "");
    i = j + end[0].length;
  }
  if (stack.length > 0) problems.push(`unclosed: ${stack.join(" > ")}`);
  if (roots !== 1) problems.push(`${roots} root elements`);
  return problems;
}

export function expectWellFormedXml(doc: string): void {
  expect(xmlProblems(doc), "well-formed XML").toEqual([]);
}
