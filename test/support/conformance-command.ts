// The conformance command as a child process, as a node team runs the installed package: its compiled
// entry (what bin/ledger-conformance.mjs starts in the package; compiled for the tests by
// test-build.ts), spawned with node directly (npx leaves orphans when killed) and asynchronously (the
// servers it is pointed at may answer from the test's own event loop). The one spawner behind every
// test that runs the command.

import { spawn } from "node:child_process";
import { compiledEntry, ROOT } from "./test-build.ts";

export { ROOT };

export interface CommandRun {
  /** The exit status; null when it was killed. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

export interface CommandOptions {
  /** Killed (SIGKILL) after this long; default 120 s. */
  readonly timeoutMs?: number;
  readonly env?: Readonly<Record<string, string>>;
  /** Sends this signal once stdout contains `when`. */
  readonly signal?: { readonly name: NodeJS.Signals; readonly when: string };
}

export function conformanceCommand(args: readonly string[], options: CommandOptions = {}): Promise<CommandRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [compiledEntry("ledger-conformance-entry"), ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", ...options.env },
    });
    let stdout = "";
    let stderr = "";
    let signalled = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (options.signal && !signalled && stdout.includes(options.signal.when)) {
        signalled = true;
        child.kill(options.signal.name);
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
    child.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}
