// Text bound for a terminal or a page. What a target sends (bodies, headers, error messages) may hold
// escape sequences that clear the screen, retitle the window or hide text, carriage returns that
// overwrite a line, or bidirectional overrides that reorder it (on a page too): every console line and
// every text of the HTML report goes through escapeControls, which shows such characters as visible
// escapes (\x1b, \u202e). Tabs and newlines are kept.

const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

export function escapeControls(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/** For HTML text and attribute values: the markup characters as entities, control characters shown as above. */
export function escapeHtml(s: string): string {
  return escapeControls(s).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );
}
