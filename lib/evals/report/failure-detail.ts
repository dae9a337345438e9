import type { CaseResult } from '../case-result.js';

/** Why a case did not pass, in one line: the first failed run's error, or its failed assertions. */
export function failureDetail(result: CaseResult): string {
  const run = result.attempts.find((a) => a.verdict !== 'pass');
  if (run === undefined) return result.skipReason ?? '';
  if (run.error !== undefined) return run.error;
  const failed = run.assertions.filter((a) => !a.pass);
  return failed.map((a) => `${a.type}: ${a.reason}`).join('; ');
}

/** `0.875` → `87.5%`. */
export function percent(value: number): string {
  return `${(value * 100).toFixed(1).replace(/\.0$/, '')}%`;
}

/** A USD amount with enough digits for small costs. */
export function usd(value: number): string {
  return value === 0 ? '$0' : value < 0.01 ? `$${value.toFixed(6)}` : `$${value.toFixed(4)}`;
}
