// What an Allure single-file page can show: its HTML with its embedded data files (d("data/…",
// "<base64>")) decoded, for tests that look for a result's name in it.

export function allurePageText(page: string): string {
  const embedded = [...page.matchAll(/d\("[^"]+","([A-Za-z0-9+/=]+)"\)/g)].map((m) =>
    Buffer.from(m[1] as string, "base64").toString("utf8"),
  );
  return [page, ...embedded].join("\n");
}
