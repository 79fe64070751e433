#!/usr/bin/env node
import { runEntry } from "./run-package-entry.mjs";
// A run's suite runner; from a checkout, loaded before tsx's loader (run-package-entry.mjs).
await runEntry("ledger-conformance-entry", { loadFirst: ["vitest/node"] });
