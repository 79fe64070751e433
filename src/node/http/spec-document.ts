// The node's own copy of the interface description (§4.1), read from disk once at start.

import { readFileSync } from "node:fs";
import { parsePackageYaml } from "../../parsed-yaml.ts";
import { packagePath } from "../../package-root.ts";

export interface SpecDocument {
  readonly yaml: string;
  readonly json: string;
}

export const DEFAULT_SPEC_PATH = packagePath("schemas", "openapi.yaml");

export function loadSpecDocument(path: string = DEFAULT_SPEC_PATH): SpecDocument {
  const yaml = readFileSync(path, "utf8");
  return { yaml, json: JSON.stringify(parsePackageYaml(yaml)) };
}
