// How counts and rates are written in every report and in the verdict's words: the same on every
// machine (no locale).

/** A whole count with thousands separators: 41203 → "41,203". Not locale-dependent, so reports are the same everywhere. */
export function grouped(n: number): string {
  if (!Number.isFinite(n)) return "?";
  const whole = Math.round(n);
  const digits = String(Math.abs(whole)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return whole < 0 ? `-${digits}` : digits;
}

/** A rate: whole and grouped from 100/s up, one decimal below, where a decimal still says something. */
export function rate(perSecond: number): string {
  if (!Number.isFinite(perSecond)) return "?";
  return perSecond >= 100 ? grouped(perSecond) : perSecond.toFixed(1);
}
