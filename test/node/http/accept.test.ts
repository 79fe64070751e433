// Design §5: Accept application/x-bcs selects BCS; anything else gets JSON (no 406).
import { describe, expect, it } from "vitest";
import { prefersBcs } from "../../../src/node/http/accept.ts";

describe("media type selection", () => {
  it.each([
    ["application/x-bcs", true],
    ["Application/X-BCS", true],
    ["application/x-bcs;q=0.9", true],
    ["application/json, application/x-bcs", false],
    ["application/x-bcs, application/json", true],
    ["application/json;q=0.5, application/x-bcs", true],
    ["application/x-bcs;q=0.2, application/json;q=0.8", false],
    ["application/x-bcs;q=0", false],
    ["text/html, application/x-bcs", true],
    ["*/*", false],
    ["application/*", false],
    ["", false],
    [undefined, false],
    [";;;,,q=", false],
  ])("Accept %j selects BCS: %s", (accept, expected) => {
    expect(prefersBcs(accept)).toBe(expected);
  });
});
