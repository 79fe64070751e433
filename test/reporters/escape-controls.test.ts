// Control characters from the target never reach a terminal or a page raw: escapes, C1 controls,
// carriage returns and bidirectional overrides are shown as visible escapes.

import { describe, expect, it } from "vitest";
import { escapeControls } from "../../reporters/escape-controls.ts";

describe("escapeControls", () => {
  it("shows ESC sequences, BEL, CR, DEL, C1 controls and bidi overrides as escapes, keeping tabs and newlines", () => {
    const hostile = "a\u001b[2J\u001b]0;pwned\u0007\u001b[8mhidden\r\u007f\u009b31m\u202eevil\u2066\tb\nc";
    const shown = escapeControls(hostile);
    expect(shown).toBe("a\\x1b[2J\\x1b]0;pwned\\x07\\x1b[8mhidden\\x0d\\x7f\\x9b31m\\u202eevil\\u2066\tb\nc");
    expect(shown).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/);
    expect(escapeControls(shown)).toBe(shown);
  });
});
