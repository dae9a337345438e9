import { setOwn } from './schema-utils.js';

/** The marker that replaces a reference back to an enclosing object. */
export const CIRCULAR_MARKER = '[Circular]';

/**
 * Turns whatever a tool returned into the text the model sees:
 * - a string passes through; `null` / `undefined` become `''`;
 * - numbers, booleans, bigints and symbols use their string form; a Date its ISO string;
 * - plain objects, arrays and class instances are JSON (`toJSON` is honoured; a Map becomes an
 *   object of its entries, a Set an array, a bigint a string, an Error `{ name, message, … }`, a
 *   typed array an array of numbers, a RegExp its source text); a reference back to an enclosing
 *   object becomes `"[Circular]"` (shared, non-circular references are serialised in full).
 * Never throws: a value that cannot be serialised at all gives a short `[unserializable …]` note.
 */
export function serializeToolResult(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  switch (typeof value) {
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'symbol':
      return String(value);
    case 'function':
      return `[function ${value.name || 'anonymous'}]`;
    default:
      break;
  }
  try {
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
    return JSON.stringify(toJsonSafe(value, '', new Set(), false)) ?? '';
  } catch (error) {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return `[unserializable ${typeof name === 'string' ? name : 'object'}: ${(error as Error)?.message ?? String(error)}]`;
  }
}

/** Converts a value into data `JSON.stringify` handles without loss or crash (see {@link serializeToolResult}). */
function toJsonSafe(value: unknown, key: string, ancestors: Set<object>, skipToJSON: boolean): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object' || value === null) return value;
  if (ancestors.has(value)) return CIRCULAR_MARKER;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (!skipToJSON && typeof toJSON === 'function') {
    return toJsonSafe((toJSON as (key: string) => unknown).call(value, key), key, ancestors, true);
  }
  ancestors.add(value);
  try {
    return convertObject(value, ancestors);
  } finally {
    ancestors.delete(value);
  }
}

function convertObject(value: object, ancestors: Set<object>): unknown {
  const recurse = (item: unknown, key: string): unknown => toJsonSafe(item, key, ancestors, false);
  if (Array.isArray(value)) return value.map((item, i) => recurse(item, String(i)));
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    return Array.from(value as unknown as ArrayLike<unknown>, (item, i) => recurse(item, String(i)));
  }
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) {
      const name = typeof k === 'string' ? k : typeof k === 'object' && k !== null ? JSON.stringify(recurse(k, '')) : String(k);
      setOwn(out, name, recurse(v, name));
    }
    return out;
  }
  if (value instanceof Set) return [...value].map((item, i) => recurse(item, String(i)));
  if (value instanceof RegExp) return String(value);
  const out: Record<string, unknown> = {};
  if (value instanceof Error) {
    out['name'] = value.name;
    out['message'] = value.message;
  }
  for (const [k, v] of Object.entries(value)) setOwn(out, k, recurse(v, k));
  return out;
}
