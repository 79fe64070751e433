// What stdout gets at the end of a run (--format): the console table, or the markdown summary.

export const REPORT_FORMATS = ["console", "markdown"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
