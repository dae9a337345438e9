/**
 * Durations, token counts and costs as short text for terminals (trace views, the chat footer,
 * `agentlib run` and `doctor`). Every unit boundary is decided on the value *after* rounding, so a
 * value never shows as `1000ms`, `60.0s`, `1m60s` or `1000k`.
 */

/**
 * How `formatDuration` writes a duration:
 * - `compact` (default; narrow columns): `850ms`, `1.25s`, `12.5s`, `2m05s`, `1h02m`;
 * - `tenths`: one decimal of seconds and a space between parts: `850ms`, `1.3s`, `12.5s`, `2m 05s`, `1h 02m`;
 * - `spaced`: like `tenths` with a space before each unit: `850 ms`, `1.3 s`, `12.5 s`, `2m 05s`, `1h 02m`.
 */
export type DurationStyle = 'compact' | 'tenths' | 'spaced';

const pad2 = (n: number): string => String(n).padStart(2, '0');

/**
 * Milliseconds as a short duration (see {@link DurationStyle}). Below a second: whole
 * milliseconds; below a minute: seconds with two decimals under 10 s (`compact` only) and one
 * decimal otherwise; below an hour: minutes and whole seconds; from an hour: hours and whole
 * minutes. The total is rounded to the precision shown first and then split, so 119,600 ms is
 * `2m00s` (not `1m60s`) and 59,960 ms is `1m00s` (not `60.0s`). Negative or non-finite values give `-`.
 */
export function formatDuration(ms: number, style: DurationStyle = 'compact'): string {
  if (!Number.isFinite(ms) || ms < 0) return '-';
  const unit = style === 'spaced' ? ' ' : '';
  const gap = style === 'compact' ? '' : ' ';
  const millis = Math.round(ms);
  if (millis < 1000) return `${millis}${unit}ms`;
  if (style === 'compact') {
    const hundredths = Math.round(ms / 10);
    if (hundredths < 1000) return `${(hundredths / 100).toFixed(2)}${unit}s`;
  }
  const tenths = Math.round(ms / 100);
  if (tenths < 600) return `${(tenths / 10).toFixed(1)}${unit}s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${gap}${pad2(seconds % 60)}s`;
  const minutes = Math.round(ms / 60_000);
  return `${Math.floor(minutes / 60)}h${gap}${pad2(minutes % 60)}m`;
}

/**
 * A token count for narrow columns: `950`, `1.2k` (one decimal under 10k), `12k`, `3.4M`, `1.2B`.
 * Negative or non-finite counts give `-`.
 */
export function formatTokens(count: number): string {
  if (!Number.isFinite(count) || count < 0) return '-';
  const whole = Math.round(count);
  if (whole < 1000) return String(whole);
  const tenthsOfK = Math.round(count / 100);
  if (tenthsOfK < 100) return `${(tenthsOfK / 10).toFixed(1)}k`;
  const thousands = Math.round(count / 1000);
  if (thousands < 1000) return `${thousands}k`;
  const tenthsOfM = Math.round(count / 100_000);
  if (tenthsOfM < 10_000) return `${(tenthsOfM / 10).toFixed(1)}M`;
  return `${(count / 1e9).toFixed(1)}B`;
}

/** A token count in full with thousands separators (`875`, `12,400`), or in millions from 1M (`1.2M`). */
export function formatTokensGrouped(count: number): string {
  if (!Number.isFinite(count)) return '-';
  if (Math.abs(count) >= 1_000_000) return `${(count / 1_000_000).toFixed(1)}M`;
  return Math.round(count).toLocaleString('en-US');
}

/**
 * USD with enough digits to show small per-call costs: `$0`, `$0.000027`, `$0.0123`, `$1.50`
 * (two significant digits below a cent, four decimals below a dollar, two from a dollar). A
 * non-zero cost never shows as zero (below ten decimals: `<$0.0000000001`).
 */
export function formatCost(usd: number): string {
  if (!Number.isFinite(usd)) return '-';
  if (usd === 0) return '$0';
  const sign = usd < 0 ? '-' : '';
  const abs = Math.abs(usd);
  if (Math.round(abs * 10_000) >= 10_000) return `${sign}$${abs.toFixed(2)}`;
  // Rounded to two significant digits first, so 0.0000999 is `$0.00010`, not `$0.000100`.
  const rounded = Number(abs.toPrecision(2));
  if (rounded >= 0.01) return `${sign}$${abs.toFixed(4)}`;
  const digits = Math.min(10, -Math.floor(Math.log10(rounded)) + 1);
  const text = rounded.toFixed(digits);
  // Below what ten decimals show: an upper bound, never a zero.
  return /^[0.]+$/.test(text) ? `${sign}<$${(1e-10).toFixed(10)}` : `${sign}$${text}`;
}

/**
 * A cost for a narrow column of `maxWidth` characters (default 8): two significant digits below a
 * cent (`$0.0012`, `$0.00049`), `$0.50`, `$12.50` from a cent; empty when there is none (undefined
 * or 0). A non-zero cost never shows as zero: one too small for the column is an upper bound
 * (`<$0.0001` for $0.000049 in 8 columns). Pass `Infinity` where there is room (`$0.000049`).
 */
export function formatCostNarrow(usd: number | undefined, maxWidth = 8): string {
  if (usd === undefined || usd === 0 || !Number.isFinite(usd)) return '';
  const abs = Math.abs(usd);
  if (abs >= 0.01 || Math.round(abs * 10_000) >= 100) return `${usd < 0 ? '-' : ''}$${abs.toFixed(2)}`;
  const text = formatCost(usd);
  if (text.length <= maxWidth) return text;
  // `<$0.` and the decimals of the smallest bound that fits: `<$0.0001` in 8 columns.
  const decimals = Math.max(2, maxWidth - 4);
  return `<$${(10 ** -decimals).toFixed(decimals)}`;
}

/**
 * A running total of cost: `$0.0000` for none, two significant digits below a cent (`$0.000049`,
 * `$0.0012`, never a zero for a non-zero cost), four decimals below a dollar (`$0.0123`) and two
 * from a dollar (`$1.23`).
 */
export function formatCostFixed(usd: number): string {
  if (!Number.isFinite(usd)) return '-';
  if (usd === 0) return '$0.0000';
  const abs = Math.abs(usd);
  if (Math.round(abs * 10_000) >= 10_000) return `$${usd.toFixed(2)}`;
  if (abs >= 0.01) return `$${usd.toFixed(4)}`;
  return formatCost(usd);
}
