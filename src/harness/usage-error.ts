// A flag, a config file or a targets file the run cannot take: the command prints the message with
// its usage text and exits 2. Every way of naming a target URL checks it here.

import { ConfigurationError } from "./configuration-error.ts";

export class UsageError extends ConfigurationError {
  override readonly name = "UsageError";
}

/** An http or https URL, or a UsageError naming where it came from. */
export function checkTargetUrl(source: string, value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${source} must be a URL such as http://127.0.0.1:8080/v1, got '${value}'`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`${source} must be http or https, got '${url.protocol}'`);
}
