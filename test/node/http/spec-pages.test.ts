// §4.1: /v1/spec renders the interface offline from the node's own copy of schemas/openapi.yaml, which
// /v1/spec.yaml and /v1/spec.json serve.

import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startNode, type RunningNode } from "../../../src/node/index.ts";
import { DEFAULT_SPEC_PATH } from "../../../src/node/http/spec-document.ts";
import { ManualClock } from "../../../src/node/ledger/index.ts";
import { CHROMIUM_MISSING, hasChromium, renderedDom } from "../../support/chromium.ts";
import { call, expectError, expectOk, header } from "./helpers.ts";

let node: RunningNode;
beforeAll(async () => {
  node = await startNode({ clock: new ManualClock() });
});
afterAll(() => node.close());

interface OpenApi {
  paths: Record<string, Record<string, { operationId: string }>>;
}

describe("the machine-readable forms", () => {
  it("serves schemas/openapi.yaml as it is at /v1/spec.yaml", async () => {
    const reply = await call(node.url, "/spec.yaml");
    expectOk(reply);
    expect(header(reply, "content-type")).toMatch(/^application\/yaml/);
    expect(reply.text).toBe(readFileSync(DEFAULT_SPEC_PATH, "utf8"));
  });

  it("serves the same document as JSON at /v1/spec.json", async () => {
    const reply = await call(node.url, "/spec.json");
    expectOk(reply);
    expect(header(reply, "content-type")).toMatch(/^application\/json/);
    expect(reply.json()).toEqual(parse(readFileSync(DEFAULT_SPEC_PATH, "utf8")));
  });
});

describe("the spec page", () => {
  it("is HTML that loads its scripts and styles from the node only", async () => {
    const reply = await call(node.url, "/spec");
    expectOk(reply);
    expect(header(reply, "content-type")).toMatch(/^text\/html/);
    const sources = [...reply.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? "");
    expect(sources.length).toBeGreaterThanOrEqual(3);
    for (const source of sources) {
      expect(source, "no CDN").toMatch(/^\/v1\/spec\/assets\//);
      const asset = await call(node.url.replace(/\/v1$/, ""), source);
      expect(asset.status, source).toBe(200);
      expect(asset.bytes.length, source).toBeGreaterThan(0);
    }
  });

  it("serves no file outside its fixed list of assets", async () => {
    for (const name of ["package.json", "..%2F..%2Fpackage.json", "index.html", "swagger-ui-bundle.js.map"]) {
      expectError(await call(node.url, `/spec/assets/${name}`), 404, "web_framework_error");
    }
  });

  it("renders every operation in headless Chromium, offline", async (context) => {
    context.skip(!hasChromium(), CHROMIUM_MISSING);
    const stdout = await renderedDom(`${node.url}/spec`);
    const spec = (await call(node.url, "/spec.json")).json() as OpenApi;
    const operations = Object.values(spec.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
    expect(operations.length).toBeGreaterThanOrEqual(10);
    // Swagger UI gives every rendered operation an element id ending in its operationId.
    for (const operationId of operations) expect(stdout, operationId).toMatch(new RegExp(`id="operations-[^"]*-${operationId}"`));
    for (const path of Object.keys(spec.paths)) expect(stdout, path).toContain(`data-path="${path}"`);
  });
});
