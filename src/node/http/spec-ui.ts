// The offline spec page (§4.1): an HTML shell that loads Swagger UI from the node itself (never a CDN)
// and points it at the node's /v1/spec.json.

import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export const SPEC_ASSETS_PATH = "/v1/spec/assets";

const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

/** The swagger-ui-dist files the page needs, and their media types. Nothing else is served. */
const SWAGGER_FILES: Readonly<Record<string, string>> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
  "favicon-16x16.png": "image/png",
};

/** Runs Swagger UI on the node's JSON description; validatorUrl null keeps it from calling out. */
const INITIALIZER = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/v1/spec.json",
    dom_id: "#swagger-ui",
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
});
`;

export const SPEC_PAGE_HTML = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Ledger node REST interface</title>
  <link rel="stylesheet" href="${SPEC_ASSETS_PATH}/swagger-ui.css">
  <link rel="icon" type="image/png" href="${SPEC_ASSETS_PATH}/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${SPEC_ASSETS_PATH}/swagger-ui-bundle.js"></script>
  <script src="${SPEC_ASSETS_PATH}/initializer.js"></script>
</body>
</html>
`;

export interface SpecAsset {
  readonly contentType: string;
  readonly body: Buffer | string;
}

const cache = new Map<string, SpecAsset>();

/** The asset of that name, or undefined for any name outside the fixed list. */
export async function specAsset(name: string): Promise<SpecAsset | undefined> {
  if (name === "initializer.js") return { contentType: "text/javascript; charset=utf-8", body: INITIALIZER };
  const contentType = Object.hasOwn(SWAGGER_FILES, name) ? SWAGGER_FILES[name] : undefined;
  if (contentType === undefined) return undefined;
  let asset = cache.get(name);
  if (asset === undefined) {
    asset = { contentType, body: await readFile(join(SWAGGER_UI_DIR, name)) };
    cache.set(name, asset);
  }
  return asset;
}
