import { UsageError } from '../../cli/usage-error.js';

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * `--since`: an age (`30m`, `24h`, `7d`, `2w`) counted back from `now`, or a date / ISO time
 * (`2026-01-31`, `2026-01-31T12:00Z`). Returns ms since the epoch; anything else is a UsageError.
 */
export function parseSince(value: string, now: number): number {
  const age = /^(\d+(?:\.\d+)?)([mhdw])$/.exec(value.trim());
  if (age !== null) return now - Number(age[1]) * (UNITS[age[2] ?? 'd'] ?? 0);
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) {
    const at = Date.parse(value);
    if (Number.isFinite(at)) return at;
  }
  throw new UsageError(`--since must be an age like 30m, 24h, 7d, 2w or a date like 2026-01-31, got ${JSON.stringify(value)}`);
}
