// Faults in the §4.1 interface description: the JSON form not JSON, and a description that lacks an
// operation of the interface.

import { yamlPackage } from "../../parsed-yaml.ts";
import { payloadText, routeOf, type Fault } from "./fault.ts";

const specJsonServesYaml: Fault = {
  name: "spec-json-serves-yaml",
  area: "spec-pages",
  description: "serves the YAML document at /spec.json too, labelled application/json",
  breaks: ["4.1/spec-json", "4.1/json-describes-interface"],
  http: (app) => {
    app.addHook("onSend", async (request, reply, payload) => {
      const text = payloadText(payload);
      if (routeOf(request) !== "/v1/spec.json" || reply.statusCode !== 200 || text === undefined) return payload;
      return yamlPackage().stringify(JSON.parse(text));
    });
  },
};

/** The description of an older interface, before submission: the document without /transactions. */
function withoutSubmission(document: Record<string, unknown>): Record<string, unknown> {
  const paths = { ...(document.paths as Record<string, unknown>) };
  delete paths["/transactions"];
  delete paths["/v1/transactions"];
  return { ...document, paths };
}

const specMissingSubmission: Fault = {
  name: "spec-missing-submission",
  area: "spec-pages",
  description: "serves a stale interface description at /spec.yaml and /spec.json that lacks POST /transactions",
  breaks: ["4.1/yaml-describes-interface", "4.1/json-describes-interface"],
  http: (app) => {
    app.addHook("onSend", async (request, reply, payload) => {
      const text = payloadText(payload);
      if (reply.statusCode !== 200 || text === undefined) return payload;
      const route = routeOf(request);
      if (route === "/v1/spec.json") return JSON.stringify(withoutSubmission(JSON.parse(text) as Record<string, unknown>));
      if (route === "/v1/spec.yaml")
        return yamlPackage().stringify(withoutSubmission(yamlPackage().parse(text) as Record<string, unknown>));
      return payload;
    });
  },
};

export const SPEC_PAGE_FAULTS: readonly Fault[] = [specJsonServesYaml, specMissingSubmission];
