import { NonSerializableError } from './errors/non-serializable-error.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function describe(value: object): string {
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' ? `a ${name} instance` : 'an object with a custom prototype';
}

/**
 * Nesting past which the fast walk stops and leaves the value to {@link check}. The fast walk keeps
 * no list of the objects above it: a cycle sends it down and down, and this bound ends that (the
 * slow walk then names the cycle). Plain data nested deeper than this is still accepted, by the
 * slow walk.
 */
const FAST_WALK_DEPTH = 64;

/**
 * True when `value` is plain JSON data (the fast walk: no path strings, no ancestor list; a cycle or
 * data nested deeper than {@link FAST_WALK_DEPTH} returns false, as does anything JSON cannot hold,
 * and the slow walk then decides). An array hole reads as undefined, which is refused here too.
 */
function isPlain(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (depth >= FAST_WALK_DEPTH) return false;
      if (Array.isArray(value)) {
        for (let index = 0; index < value.length; index += 1) {
          if (!isPlain(value[index], depth + 1)) return false;
        }
        return true;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if ((proto !== Object.prototype && proto !== null) || Object.getOwnPropertySymbols(value).length > 0) return false;
      const keys = Object.keys(value);
      for (let index = 0; index < keys.length; index += 1) {
        const child = (value as Record<string, unknown>)[keys[index]!];
        if (child !== undefined && !isPlain(child, depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/** The slow walk, run only once {@link isPlain} failed: throws for the first problem, with its path. */
function check(value: unknown, path: string, ancestors: object[]): void {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new NonSerializableError({ path, reason: `${String(value)} is not a JSON number` });
      return;
    case 'bigint':
      throw new NonSerializableError({ path, reason: 'a BigInt is not JSON; store it as a string' });
    case 'function':
      throw new NonSerializableError({ path, reason: 'a function is not data' });
    case 'symbol':
      throw new NonSerializableError({ path, reason: 'a symbol is not JSON' });
    case 'undefined':
      throw new NonSerializableError({ path, reason: 'undefined is not JSON; use null or leave the key out' });
    case 'object': {
      if (value === null) return;
      if (ancestors.includes(value)) throw new NonSerializableError({ path, reason: 'it refers back to one of its own parents (a cycle)' });
      ancestors.push(value);
      if (Array.isArray(value)) {
        for (let index = 0; index < value.length; index += 1) {
          if (!(index in value)) throw new NonSerializableError({ path: childPath(path, index), reason: 'a hole in an array is not JSON' });
          check(value[index], childPath(path, index), ancestors);
        }
      } else {
        const proto: unknown = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) {
          const hint = value instanceof Date ? '; store date.toISOString()' : value instanceof Map || value instanceof Set ? '; store an array or a plain object' : '';
          throw new NonSerializableError({ path, reason: `${describe(value)} would not come back as itself${hint}` });
        }
        if (Object.getOwnPropertySymbols(value).length > 0) throw new NonSerializableError({ path, reason: 'symbol keys are not JSON' });
        for (const [key, child] of Object.entries(value)) {
          if (child === undefined) continue; // JSON leaves the key out; reading it back gives undefined again
          check(child, childPath(path, key), ancestors);
        }
      }
      ancestors.pop();
      return;
    }
  }
}

/**
 * Checks that `value` is plain JSON data — null, booleans, finite numbers, strings, arrays without
 * holes and plain objects — and throws NonSerializableError naming the first offending path
 * (`state.data.orders[3].placedAt: a Date instance would not come back as itself`) otherwise.
 * Object keys whose value is undefined are allowed (JSON omits them).
 */
export function assertStrictJson(value: unknown, root = 'value'): void {
  if (!isPlain(value, 0)) check(value, root, []);
}

/** `JSON.stringify(value)` after {@link assertStrictJson}: what is stored comes back equal. */
export function toStrictJson(value: unknown, root = 'value'): string {
  if (!isPlain(value, 0)) check(value, root, []);
  return JSON.stringify(value);
}
