#!/usr/bin/env node
import { runEntry } from "./run-package-entry.mjs";
await runEntry("ledger-node");
