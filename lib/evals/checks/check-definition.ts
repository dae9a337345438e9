import type { Assertion, CheckContext, CheckOutcome } from '../types.js';

/** One assertion type: how its `value` is validated when the suite loads, and how it is checked. */
export interface CheckDefinition {
  type: string;
  /** One line for docs and `--help`. */
  description: string;
  /** Judges call a model; deterministic checks never do. */
  kind: 'deterministic' | 'judge';
  /** False when `not-<type>` has no meaning (refused when the suite loads). Default true. */
  negatable?: false;
  /**
   * Checks `value`/`threshold` when the suite loads: returns what is wrong, or undefined. A broken
   * assertion is a suite error (exit 2) at its `file:line:col`, never a failed case.
   */
  validate: (assertion: Pick<Assertion, 'value' | 'threshold'>) => string | undefined;
  run: (assertion: Assertion, ctx: CheckContext) => CheckOutcome | Promise<CheckOutcome>;
}

/** A pass (score 1) or a fail (score 0). */
export function outcome(pass: boolean, reason: string, extra: { expected?: string; actual?: string } = {}): CheckOutcome {
  return { pass, score: pass ? 1 : 0, reason, ...extra };
}

/** A short quoted excerpt of a string for messages. */
export function excerpt(text: string, max = 120): string {
  const one = text.replace(/\s+/g, ' ');
  return JSON.stringify(one.length > max ? `${one.slice(0, max - 1)}…` : one);
}

/** Validators for `value`. */
export const needs = {
  nothing: (): string | undefined => undefined,
  string: (a: Pick<Assertion, 'value'>): string | undefined =>
    typeof a.value === 'string' || typeof a.value === 'number' ? undefined : 'needs a "value" string',
  strings: (a: Pick<Assertion, 'value'>): string | undefined =>
    Array.isArray(a.value) && a.value.length > 0 && a.value.every((v) => typeof v === 'string' || typeof v === 'number')
      ? undefined
      : 'needs a "value" list of strings',
  stringOrStrings: (a: Pick<Assertion, 'value'>): string | undefined =>
    needs.string(a) === undefined || needs.strings(a) === undefined ? undefined : 'needs a "value" string or list of strings',
  positiveLimit: (a: Pick<Assertion, 'value' | 'threshold'>): string | undefined => {
    const limit = a.threshold ?? a.value;
    return typeof limit === 'number' && Number.isFinite(limit) && limit >= 0 ? undefined : 'needs a "threshold" (or "value") number ≥ 0';
  },
};

/** `value` as a list of strings. */
export function stringList(value: unknown): string[] {
  return (Array.isArray(value) ? value : [value]).map((v) => String(v));
}
