// Faults in the §4.7 health check: the duration_secs threshold ignored, or read in the wrong unit.

import { overrideApi, type Fault } from "./fault.ts";

const healthThresholdIgnored: Fault = {
  name: "health-threshold-ignored",
  area: "health",
  description: "ignores duration_secs: the health check always answers 200 however far the ledger lags",
  breaks: ["4.7/health-threshold-law"],
  engine: (api) => overrideApi(api, { isHealthy: () => api.isHealthy(undefined) }),
};

const healthDurationMilliseconds: Fault = {
  name: "health-duration-milliseconds",
  area: "health",
  description: "reads duration_secs as milliseconds, so a lag of a few seconds already fails the health check",
  breaks: ["4.7/within-threshold-healthy", "4.7/health-threshold-law"],
  engine: (api) =>
    overrideApi(api, {
      isHealthy: (durationSecs, options) => api.isHealthy(durationSecs === undefined ? undefined : durationSecs / 1000n, options),
    }),
};

export const HEALTH_FAULTS: readonly Fault[] = [healthThresholdIgnored, healthDurationMilliseconds];
