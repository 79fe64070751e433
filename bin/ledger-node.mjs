#!/usr/bin/env node
// Runs the TypeScript entry point through tsx, so `npx ledger-node` needs no build step.
import { register } from "tsx/esm/api";
register();
await import("../src/cli/ledger-node.ts");
