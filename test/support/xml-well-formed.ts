// That a document the suite writes (junit.xml) is well-formed XML, by fast-xml-parser's validator (tags
// closed in order, attributes quoted once each, entities and references), plus the rules it leaves
// open: one root element, no raw `<` in an attribute value, and no character XML 1.0 cannot carry
// (control characters from a target's answer).

import { XMLParser, XMLValidator } from "fast-xml-parser";
import { expect } from "vitest";

export function xmlProblems(doc: string): string[] {
  const problems: string[] = [];
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(doc)) problems.push("a character XML 1.0 cannot hold");
  if (/="[^"]*</.test(doc)) problems.push("a raw < in an attribute value");
  const result = XMLValidator.validate(doc);
  if (result !== true) return [...problems, `${result.err.code} at line ${result.err.line}: ${result.err.msg}`];
  const top = new XMLParser({ preserveOrder: true, ignoreDeclaration: true }).parse(doc) as Record<string, unknown>[];
  const roots = top.filter((node) => !("#text" in node)).length;
  if (roots !== 1) problems.push(`${roots} root elements`);
  return problems;
}

export function expectWellFormedXml(doc: string): void {
  expect(xmlProblems(doc), "well-formed XML").toEqual([]);
}
