import type { JsonSchema } from '../core/json.js';
import { isPlainObject } from '../core/json.js';

/** A JSON Schema node: an object schema, or `true` / `false`. */
export type SchemaNode = JsonSchema | boolean;

/** The JSON type name of a value, as used in messages (`integer` is reported as `number`). */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'bigint') return 'number';
  return typeof value;
}

/** The `type` keyword of a schema as a list (empty when the schema does not constrain the type). */
export function declaredTypes(schema: JsonSchema): string[] {
  const type = schema['type'];
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return [];
}

/** True when `value` matches the JSON type name `type` (`integer` needs a whole number). */
export function matchesType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'string':
      return typeof value === 'string';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    default:
      return true;
  }
}

/** Structural equality of JSON values (used for `enum` and `const`). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
  }
  return false;
}

/**
 * Follows a local `$ref` (`#/$defs/x`, `#/definitions/x`, any `#/…` JSON pointer) against `root`.
 * Returns the schema itself when it has no `$ref`, and `undefined` when the reference cannot be resolved.
 */
export function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema | undefined {
  let current: JsonSchema = schema;
  for (let hops = 0; typeof current['$ref'] === 'string'; hops++) {
    const ref = current['$ref'];
    if (hops > 32 || !ref.startsWith('#')) return undefined;
    let target: unknown = root;
    for (const raw of ref.slice(1).split('/').filter(Boolean)) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      target = isPlainObject(target) ? ownGet(target, key) : undefined;
    }
    if (!isPlainObject(target)) return undefined;
    current = target;
  }
  return current;
}

/** The `properties` of an object schema (only object-valued entries). */
export function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  const props = schema['properties'];
  const out: Record<string, JsonSchema> = {};
  if (!isPlainObject(props)) return out;
  for (const [key, value] of Object.entries(props)) {
    if (isPlainObject(value)) setOwn(out, key, value);
    else if (value === true) setOwn(out, key, {});
  }
  return out;
}

/** The `required` names of an object schema. */
export function requiredOf(schema: JsonSchema): string[] {
  const required = schema['required'];
  return Array.isArray(required) ? required.filter((r): r is string => typeof r === 'string') : [];
}

/** Formats an issue path for messages: `a.b[0].c`. */
export function formatPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const segment of path) out += typeof segment === 'number' ? `[${segment}]` : out ? `.${segment}` : segment;
  return out;
}

/** `record[key]` when it is an own property (never an inherited one such as `constructor`). */
export function ownGet<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Sets an own, enumerable property, safely for keys such as `__proto__` (no prototype change). */
export function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  // Keys Object.prototype has (`__proto__` with its setter, `constructor`, … which are read-only
  // when the prototype is frozen) are defined; every other key is assigned, which is much faster
  // on this hot path.
  if (Object.hasOwn(Object.prototype, key)) Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}
