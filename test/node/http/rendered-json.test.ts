// The JSON bodies the node renders once and keeps (src/node/http/rendered-json.ts): kept bytes are
// served only for the very same objects, so a page whose content changed (a module published, an
// object a fault made up) is rendered afresh, and the pages kept stay within their bound.

import { describe, expect, it } from "vitest";
import { jsonArray, renderedOnce, RenderedPages } from "../../../src/node/http/rendered-json.ts";

const render = (calls: { count: number }) =>
  renderedOnce((value: { readonly name: string }) => {
    calls.count++;
    return { name: value.name };
  });

describe("renderedOnce", () => {
  it("renders each object once and its bytes are its JSON", () => {
    const calls = { count: 0 };
    const bytesOf = render(calls);
    const a = { name: "a" };
    expect(bytesOf(a).toString()).toBe('{"name":"a"}');
    expect(bytesOf(a)).toBe(bytesOf(a));
    expect(calls.count).toBe(1);
    // An equal but different object (what a fault wrapping the engine makes up) is rendered from its own fields.
    expect(bytesOf({ name: "b" }).toString()).toBe('{"name":"b"}');
    expect(calls.count).toBe(2);
  });
});

describe("jsonArray", () => {
  it("joins rendered elements into one JSON array", () => {
    expect(JSON.parse(jsonArray([Buffer.from("1"), Buffer.from('"x"'), Buffer.from("{}")]).bytes.toString())).toEqual([1, "x", {}]);
    expect(jsonArray([]).bytes.toString()).toBe("[]");
  });
});

describe("RenderedPages", () => {
  it("serves a kept page only while it holds the same objects in the same order", () => {
    const calls = { count: 0 };
    const pages = new RenderedPages(render(calls), 4);
    const a = { name: "a" };
    const b = { name: "b" };
    const first = pages.body("k", [a, b]);
    expect(pages.body("k", [a, b])).toBe(first);
    expect(JSON.parse(pages.body("k", [a, b, { name: "c" }]).bytes.toString())).toEqual([{ name: "a" }, { name: "b" }, { name: "c" }]);
    expect(JSON.parse(pages.body("k", [b, a]).bytes.toString())).toEqual([{ name: "b" }, { name: "a" }]);
    expect(JSON.parse(pages.body("k", [a]).bytes.toString())).toEqual([{ name: "a" }]);
  });

  it("keeps at most its bound of pages, dropping the least recently used", () => {
    const pages = new RenderedPages(render({ count: 0 }), 2);
    const a = { name: "a" };
    const one = pages.body("1", [a]);
    const two = pages.body("2", [a]);
    expect(pages.body("1", [a])).toBe(one); // "1" is now the most recent
    pages.body("3", [a]); // drops "2"
    expect(pages.body("1", [a])).toBe(one);
    expect(pages.body("2", [a])).not.toBe(two);
  });
});
