// Faults in pagination: summaries out of order or from the wrong end, a limit overshot or ignored, a
// start_version read as exclusive, and module cursors that skip, repeat, or outlive the last page.

import { toHex } from "../../codec/index.ts";
import { moduleCursor } from "../ledger/index.ts";
import { overrideApi, type Fault } from "./fault.ts";

const summariesDescending: Fault = {
  name: "summaries-descending",
  area: "pagination",
  description: "returns transaction summaries newest first when no start_version is given (a backward scan never reversed)",
  breaks: ["4.3/ascending-order"],
  engine: (api) =>
    overrideApi(api, {
      transactionSummaries: (address, options) => {
        const summaries = api.transactionSummaries(address, options);
        return options.startVersion === undefined ? [...summaries].reverse() : summaries;
      },
    }),
};

const summariesLimitPlusOne: Fault = {
  name: "summaries-limit-plus-one",
  area: "pagination",
  description: "returns one transaction summary more than limit (an off-by-one in the page loop)",
  breaks: ["4.3/limit-respected"],
  engine: (api) =>
    overrideApi(api, {
      transactionSummaries: (address, options) => api.transactionSummaries(address, { ...options, limit: options.limit + 1 }),
    }),
};

const summariesStartExclusive: Fault = {
  name: "summaries-start-exclusive",
  area: "pagination",
  description: "treats start_version as exclusive: the summaries start after it, leaving out the account's summary at that very version",
  breaks: ["4.3/summaries-window-law"],
  engine: (api) =>
    overrideApi(api, {
      transactionSummaries: (address, options) =>
        api.transactionSummaries(
          address,
          options.startVersion === undefined ? options : { ...options, startVersion: options.startVersion + 1n },
        ),
    }),
};

const moduleCursorSkipsOne: Fault = {
  name: "module-cursor-skips-one",
  area: "pagination",
  description: "issues a module cursor one module too far, so a cursor walk loses a module at every page break",
  breaks: ["4.5/cursor-round-trip"],
  engine: (api) =>
    overrideApi(api, {
      listModules: (address, options) => {
        const page = api.listModules(address, options);
        if (page.nextCursor === undefined) return page;
        const beyond = api.listModules(address, { version: options.version, start: page.nextCursor, limit: 1 });
        return beyond.nextCursor === undefined ? { modules: page.modules } : { modules: page.modules, nextCursor: beyond.nextCursor };
      },
    }),
};

const moduleCursorRepeatsLast: Fault = {
  name: "module-cursor-repeats-last",
  area: "pagination",
  description: "issues a module cursor naming the last module returned, so the next page repeats it",
  breaks: ["4.5/cursor-round-trip"],
  engine: (api) =>
    overrideApi(api, {
      listModules: (address, options) => {
        const page = api.listModules(address, options);
        const last = page.modules[page.modules.length - 1];
        if (page.nextCursor === undefined || last === undefined) return page;
        return { modules: page.modules, nextCursor: moduleCursor(address, last.abi.name) };
      },
    }),
};

/** The cursor the faulty listing hands out at the end: following it gives an empty page. */
const END_CURSOR = toHex(new TextEncoder().encode("end-of-listing"));

const cursorOnLastPage: Fault = {
  name: "cursor-on-last-page",
  area: "pagination",
  description: "always sends X-NODE-CURSOR on a module listing, on the last page an end marker that lists nothing",
  breaks: ["4.5/no-cursor-on-last-page"],
  engine: (api) =>
    overrideApi(api, {
      listModules: (address, options) => {
        if (options.start === END_CURSOR) return { modules: [] };
        const page = api.listModules(address, options);
        return page.nextCursor === undefined && page.modules.length > 0 ? { modules: page.modules, nextCursor: END_CURSOR } : page;
      },
    }),
};

export const PAGINATION_FAULTS: readonly Fault[] = [
  summariesDescending,
  summariesLimitPlusOne,
  summariesStartExclusive,
  moduleCursorSkipsOne,
  moduleCursorRepeatsLast,
  cursorOnLastPage,
];
