// The README and the pages of docs/ link to files of the repository by relative paths: each must name
// a file or folder that exists, so that a page moved or renamed cannot leave a dead link behind. The
// README stays a newcomer's manual, under 400 lines; longer matters go to a page of docs/.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PAGES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** The targets of a page's markdown links, outside fenced code, that are neither URLs nor anchors. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] ?? "")
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target) && !target.startsWith("#"));
}

describe("the documentation's relative links", () => {
  it.each(PAGES)("%s links only to files that exist", (page) => {
    const text = readFileSync(join(ROOT, page), "utf8");
    const dead = relativeLinks(text).filter((target) => !existsSync(join(ROOT, dirname(page), target.split("#")[0] ?? "")));
    expect(dead, `${page} links to missing files`).toEqual([]);
  });

  it("finds the README's links", () => {
    expect(relativeLinks(readFileSync(join(ROOT, "README.md"), "utf8"))).toContain("docs/architecture.md");
  });
});

describe("the README", () => {
  it("stays under 400 lines", () => {
    const lines = readFileSync(join(ROOT, "README.md"), "utf8").split("\n").length;
    expect(lines, "move the longer matters to a page of docs/ and leave a link").toBeLessThan(400);
  });
});
