import { isPlainObject } from '../core/json.js';
import { jsonTypeOf } from './schema-utils.js';

/** Raw arguments turned into an object, or why they could not be. */
export type ParsedArgs = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/**
 * Turns a call's raw arguments into an object. A string is parsed as JSON (a doubly encoded JSON
 * string is unwrapped once); malformed JSON is an error, never `{}`. `undefined`, `null` and an
 * empty/blank string mean "no arguments" and give `{}`. Anything but an object is an error.
 */
export function parseArgs(raw: unknown): ParsedArgs {
  let value = raw;
  if (value === undefined || value === null) return { ok: true, value: {} };
  if (typeof value === 'string') {
    if (value.trim() === '') return { ok: true, value: {} };
    try {
      value = JSON.parse(value);
      if (typeof value === 'string' && /^\s*\{/.test(value)) value = JSON.parse(value);
    } catch (error) {
      return { ok: false, message: `arguments are not valid JSON: ${(error as Error).message}` };
    }
  }
  if (!isPlainObject(value)) return { ok: false, message: `arguments must be a JSON object, got ${jsonTypeOf(value)}` };
  return { ok: true, value };
}
