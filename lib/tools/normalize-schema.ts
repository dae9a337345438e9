import type { ValidationIssue } from '../core/errors/tool-validation-error.js';
import type { JsonSchema } from '../core/json.js';
import { isPlainObject } from '../core/json.js';
import { declaredTypes, jsonEqual, ownGet, propertiesOf, requiredOf, setOwn } from './schema-utils.js';

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_SINGLES = new Set(['additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else', 'unevaluatedProperties']);
/** Keys a literal-union branch may carry and still be merged into one `enum`. */
const LITERAL_KEYS = new Set(['enum', 'type', 'description', 'title']);

/**
 * Normalises a JSON Schema for model consumption (returns a copy; the input is not touched):
 * drops `$schema`; `const` becomes a one-value `enum`; unions of literals (`anyOf`/`oneOf` of
 * enums, plus `null`) become one `enum`; an `enum` gets a `type`; every array gets `items` (`{}`
 * when missing, the union of `prefixItems` for tuples); a property with a `default` is removed from
 * `required`; the ±2^53 bounds zod adds to integers are dropped. Definition problems (a `required`
 * name missing from `properties`, a duplicate `required` entry, an invalid `pattern`) are pushed
 * onto `problems`.
 */
export function normalizeJsonSchema(schema: unknown, problems: ValidationIssue[], path: (string | number)[] = []): unknown {
  if (typeof schema === 'boolean') return schema;
  if (!isPlainObject(schema)) {
    problems.push({ path, message: 'a schema must be an object or a boolean' });
    return {};
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema') continue;
    if (SCHEMA_MAPS.has(key) && isPlainObject(value)) {
      const map: JsonSchema = {};
      for (const [name, sub] of Object.entries(value)) setOwn(map, name, normalizeJsonSchema(sub, problems, [...path, key, name]));
      setOwn(out, key, map);
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      setOwn(out, key, value.map((sub, i) => normalizeJsonSchema(sub, problems, [...path, key, i])));
    } else if (key === 'items' && Array.isArray(value)) {
      // draft-07 tuple form → 2020-12 prefixItems (items is fixed up below)
      out['prefixItems'] = value.map((sub, i) => normalizeJsonSchema(sub, problems, [...path, key, i]));
    } else if ((SCHEMA_SINGLES.has(key) || key === 'items') && (isPlainObject(value) || typeof value === 'boolean')) {
      setOwn(out, key, normalizeJsonSchema(value, problems, [...path, key]));
    } else {
      setOwn(out, key, cloneJson(value));
    }
  }
  if ('const' in out) {
    if (!Array.isArray(out['enum'])) out['enum'] = [out['const']];
    delete out['const'];
  }
  mergeLiteralUnion(out, 'anyOf');
  mergeLiteralUnion(out, 'oneOf');
  if (Array.isArray(out['enum']) && out['type'] === undefined) setType(out, typesOfValues(out['enum']));
  dropSafeIntegerBounds(out);
  fixArrayItems(out);
  checkObject(out, problems, path);
  if (typeof out['pattern'] === 'string') {
    try {
      new RegExp(out['pattern'], 'u');
    } catch (error) {
      problems.push({ path: [...path, 'pattern'], message: `invalid pattern: ${(error as Error).message}` });
    }
  }
  return out;
}

function mergeLiteralUnion(schema: JsonSchema, keyword: 'anyOf' | 'oneOf'): void {
  const branches = schema[keyword];
  if (!Array.isArray(branches) || branches.length === 0) return;
  const values: unknown[] = [];
  const types: string[] = [];
  for (const branch of branches) {
    if (!isPlainObject(branch) || !Object.keys(branch).every((k) => LITERAL_KEYS.has(k))) return;
    const branchTypes = declaredTypes(branch);
    if (Array.isArray(branch['enum'])) values.push(...(branch['enum'] as unknown[]));
    else if (branchTypes.length === 1 && branchTypes[0] === 'null') values.push(null);
    else return;
    types.push(...(branchTypes.length > 0 ? branchTypes : typesOfValues(branch['enum'] as unknown[])));
  }
  const unique: unknown[] = [];
  for (const value of values) if (!unique.some((u) => jsonEqual(u, value))) unique.push(value);
  delete schema[keyword];
  schema['enum'] = unique;
  if (schema['type'] === undefined) setType(schema, types);
}

function typesOfValues(values: readonly unknown[]): string[] {
  return values.map((v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v));
}

function setType(schema: JsonSchema, types: readonly string[]): void {
  let unique = [...new Set(types)];
  if (unique.includes('number')) unique = unique.filter((t) => t !== 'integer');
  if (unique.length === 1) schema['type'] = unique[0];
  else if (unique.length > 1) schema['type'] = unique;
}

function dropSafeIntegerBounds(schema: JsonSchema): void {
  if (schema['minimum'] === Number.MIN_SAFE_INTEGER) delete schema['minimum'];
  if (schema['maximum'] === Number.MAX_SAFE_INTEGER) delete schema['maximum'];
}

function fixArrayItems(schema: JsonSchema): void {
  const types = declaredTypes(schema);
  const isArray = types.includes('array') || (types.length === 0 && 'prefixItems' in schema);
  if (!isArray || isPlainObject(schema['items'])) return;
  const prefix = Array.isArray(schema['prefixItems']) ? (schema['prefixItems'] as unknown[]) : [];
  if (schema['items'] === false && prefix.length > 0) {
    schema['items'] = prefix.length === 1 ? cloneJson(prefix[0]) : { anyOf: cloneJson(prefix) };
  } else {
    if (schema['items'] === false) schema['maxItems'] = 0;
    schema['items'] = {};
  }
}

function checkObject(schema: JsonSchema, problems: ValidationIssue[], path: (string | number)[]): void {
  if (!Array.isArray(schema['required'])) return;
  const required = requiredOf(schema);
  const seen = new Set<string>();
  for (const name of required) {
    if (seen.has(name)) problems.push({ path: [...path, 'required'], message: `duplicate parameter "${name}" in required` });
    seen.add(name);
  }
  // Required names must be declared, so the model learns what they are; only schemas that admit
  // arbitrary keys through a sub-schema may require names they do not list.
  const declared = isPlainObject(schema['properties']);
  if (!declared && (isPlainObject(schema['additionalProperties']) || isPlainObject(schema['patternProperties']))) return;
  const properties = declared ? propertiesOf(schema) : {};
  for (const name of seen) {
    if (!Object.hasOwn(properties, name)) {
      problems.push({ path: [...path, 'required'], message: `signature mismatch: required parameter "${name}" is not declared in properties` });
    }
  }
  schema['required'] = [...seen].filter((name) => !('default' in (ownGet(properties, name) ?? {})));
}

/** Deep copy of JSON-like data (functions and symbols are dropped, like JSON). */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => cloneJson(item)) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) setOwn(out, key, cloneJson(item));
    return out as T;
  }
  return value;
}
