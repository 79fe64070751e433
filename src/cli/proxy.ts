// `ledger-conformance proxy --upstream URL [--port P] [--report-dir DIR] [--write-every SECONDS]`: its
// flags checked, the contract and the baseline read, then the validation proxy serves
// (src/proxy/serve.ts). Exit status: its verdict on the traffic; 2 on a usage error.

import { parseArgs } from "node:util";
import { readFileSync } from "node:fs";
import { parseBaseline } from "../outcome/baseline-list.ts";
import { loadRequirementAliases } from "../harness/requirement-aliases.ts";
import { escapeControls } from "../../reporters/escape-controls.ts";
import { isProfileName, normalizeHeaderPrefix, normalizeTarget, WIRE_PROFILES } from "../harness/config.ts";
import { ApiContract } from "../harness/openapi.ts";
import { loadRequirements } from "../harness/requirements.ts";
import { defaultOf, parseOptionsOf } from "./flags.ts";
import { usageOf } from "./usage.ts";
import { serveProxy } from "../proxy/serve.ts";
import { ReportLayout } from "../../reporters/report-layout.ts";

export const PROXY_USAGE = usageOf("proxy");

/** What parseArgs gives for the proxy's flags. */
interface ProxyFlagValues {
  upstream?: string;
  port?: string;
  "report-dir"?: string;
  "write-every"?: string;
  profile?: string;
  "header-prefix"?: string;
  timeout?: string;
  baseline?: string;
  help?: boolean;
}

export async function proxyCommand(argv: readonly string[]): Promise<number> {
  let values: ProxyFlagValues;
  try {
    ({ values } = parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: parseOptionsOf("proxy") }) as {
      values: ProxyFlagValues;
    });
  } catch (e) {
    return usageError((e as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${PROXY_USAGE}\n`);
    return 0;
  }
  if (values.upstream === undefined) return usageError("--upstream is required");
  let upstream: URL;
  try {
    upstream = new URL(values.upstream);
  } catch {
    return usageError(`--upstream must be a URL such as http://127.0.0.1:8080/v1, got '${values.upstream}'`);
  }
  if (upstream.protocol !== "http:" && upstream.protocol !== "https:")
    return usageError(`--upstream must be http or https, got '${upstream.protocol}'`);
  const port = wholeNumber(values.port ?? defaultOf("proxy", "port"));
  if (port === undefined || port > 65535) return usageError(`--port needs a port number, got '${values.port}'`);
  const writeEvery = wholeNumber(values["write-every"] ?? defaultOf("proxy", "write-every"));
  if (writeEvery === undefined) return usageError(`--write-every needs a whole number of seconds, got '${values["write-every"]}'`);
  const timeoutMs = wholeNumber(values.timeout ?? defaultOf("proxy", "timeout"));
  if (timeoutMs === undefined || timeoutMs === 0)
    return usageError(`--timeout needs a positive number of milliseconds, got '${values.timeout}'`);
  const profileName = values.profile ?? defaultOf("proxy", "profile");
  if (!isProfileName(profileName)) return usageError(`--profile must be node or aptos, got '${profileName}'`);
  if (values["header-prefix"] !== undefined && !/^[A-Za-z0-9-]+$/.test(values["header-prefix"]))
    return usageError(`--header-prefix must be letters, digits and dashes, got '${values["header-prefix"]}'`);
  const headerPrefix =
    values["header-prefix"] === undefined ? WIRE_PROFILES[profileName].headerPrefix : normalizeHeaderPrefix(values["header-prefix"]);

  let baseline: { file: string; ids: string[] } | undefined;
  if (values.baseline !== undefined) {
    try {
      baseline = {
        file: values.baseline,
        ids: parseBaseline(readFileSync(values.baseline, "utf8"), values.baseline, loadRequirementAliases()),
      };
    } catch (e) {
      return usageError(`cannot read baseline ${values.baseline}: ${(e as Error).message}`);
    }
  }
  const contract = ApiContract.load(undefined, headerPrefix);
  const catalog = loadRequirements(contract.operations.map((o) => o.id));
  const unknown = baseline?.ids.filter((id) => !catalog.has(id)) ?? [];
  if (unknown.length > 0) return usageError(`${values.baseline} lists ids that are not in the catalog: ${unknown.join(", ")}`);
  return serveProxy({
    target: normalizeTarget(values.upstream),
    port,
    contract,
    catalog,
    headerPrefix,
    timeoutMs,
    writeEvery,
    layout: new ReportLayout(values["report-dir"] ?? defaultOf("proxy", "report-dir")),
    ...(baseline === undefined ? {} : { baseline }),
  });
}

function usageError(message: string): number {
  process.stderr.write(escapeControls(`ledger-conformance proxy: ${message}\n${PROXY_USAGE}\n`));
  return 2;
}

function wholeNumber(value: string): number | undefined {
  return /^[0-9]+$/.test(value) && Number.isSafeInteger(Number(value)) ? Number(value) : undefined;
}
