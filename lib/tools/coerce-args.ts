import type { ValidationIssue } from '../core/errors/tool-validation-error.js';
import type { JsonSchema } from '../core/json.js';
import { isPlainObject } from '../core/json.js';
import { closestMatch } from '../core/suggest.js';
import { cloneJson } from './normalize-schema.js';
import { declaredTypes, ownGet, propertiesOf, requiredOf, resolveRef, setOwn } from './schema-utils.js';
import { validateJsonSchema } from './validate-json-schema.js';

/** A location inside the arguments. */
export type Path = (string | number)[];

/** The outcome of {@link coerceArgs}: the repaired value and the problems found on the way. */
export interface CoercedArgs {
  value: Record<string, unknown>;
  issues: ValidationIssue[];
  /** The first did-you-mean suggestion for a mistyped parameter name. */
  suggestion: string | undefined;
  /** Paths already explained (issues, and parameters a suggestion points to): later reports there are redundant. */
  covered: Path[];
}

interface Walk {
  root: JsonSchema;
  applyDefaults: boolean;
  issues: ValidationIssue[];
  suggestion: string | undefined;
  covered: Path[];
}

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Prepares model arguments against the model-visible JSON Schema, recursively, without mutating them:
 * - coerces strings where the schema is unambiguous: `"42"` → 42 for `number`/`integer` (not when
 *   the type also allows `string`), `"true"`/`"false"` → boolean for `boolean`, a JSON string → the
 *   array/object for `array`/`object`;
 * - rejects booleans for `number`/`integer` parameters;
 * - reports an unknown name close to a declared, absent one as `unknown parameter "x" — did you
 *   mean "y"?`; other unknown names are errors only with `additionalProperties: false`, else kept;
 * - reports missing required parameters;
 * - drops `null` given for an optional parameter that does not accept null (treated as absent);
 * - applies `default`s of absent properties when `applyDefaults` (JSON Schema tools; zod does its own).
 */
export function coerceArgs(schema: JsonSchema, args: Record<string, unknown>, applyDefaults: boolean): CoercedArgs {
  const walk: Walk = { root: schema, applyDefaults, issues: [], suggestion: undefined, covered: [] };
  const value = walkObject(schema, args, [], walk);
  return { value, issues: walk.issues, suggestion: walk.suggestion, covered: [...walk.issues.map((i) => [...i.path]), ...walk.covered] };
}

function walkValue(schema: JsonSchema, raw: unknown, path: Path, walk: Walk): unknown {
  const resolved = resolveRef(schema, walk.root) ?? schema;
  const types = declaredTypes(resolved);
  const value = typeof raw === 'string' ? coerceString(raw, types) : raw;
  if (typeof value === 'boolean' && types.some((t) => t === 'number' || t === 'integer') && !types.includes('boolean')) {
    walk.issues.push({ path, message: `expected ${types.filter((t) => t !== 'null').join(' or ')}, got boolean` });
    return value;
  }
  if (Array.isArray(value) && (types.length === 0 || types.includes('array'))) {
    const prefix = Array.isArray(resolved['prefixItems']) ? (resolved['prefixItems'] as unknown[]) : [];
    const items = resolved['items'];
    return (value as unknown[]).map((item, i) => {
      const sub = i < prefix.length ? prefix[i] : items;
      return isPlainObject(sub) ? walkValue(sub, item, [...path, i], walk) : item;
    });
  }
  if (isPlainObject(value) && (types.includes('object') || (types.length === 0 && isPlainObject(resolved['properties'])))) {
    return walkObject(resolved, value, path, walk);
  }
  return value;
}

function coerceString(value: string, types: readonly string[]): unknown {
  const wanted = types.filter((t) => t !== 'null');
  if (wanted.length === 0 || wanted.includes('string')) return value;
  const text = value.trim();
  if (wanted.every((t) => t === 'number' || t === 'integer')) {
    if (!DECIMAL.test(text)) return value;
    const n = Number(text);
    if (!Number.isFinite(n) || (!wanted.includes('number') && !Number.isInteger(n))) return value;
    return n;
  }
  if (wanted.length === 1 && wanted[0] === 'boolean') {
    const lower = text.toLowerCase();
    return lower === 'true' ? true : lower === 'false' ? false : value;
  }
  if (wanted.length === 1 && (wanted[0] === 'array' || wanted[0] === 'object') && /^[[{]/.test(text)) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (wanted[0] === 'array' ? Array.isArray(parsed) : isPlainObject(parsed)) return parsed;
    } catch {
      return value;
    }
  }
  return value;
}

function walkObject(schema: JsonSchema, obj: Record<string, unknown>, path: Path, walk: Walk): Record<string, unknown> {
  const properties = propertiesOf(schema);
  const required = requiredOf(schema);
  const additional = schema['additionalProperties'];
  const absent = Object.keys(properties).filter((name) => ownGet(obj, name) === undefined);
  const suggested = new Set<string>();
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(obj)) {
    const sub = ownGet(properties, key);
    if (sub) {
      if (raw === null && !required.includes(key) && validateJsonSchema(sub, null, walk.root).length > 0) continue;
      setOwn(out, key, walkValue(sub, raw, [...path, key], walk));
      continue;
    }
    const match = closestMatch(key, absent);
    if (match !== undefined) {
      walk.issues.push({ path: [...path, key], message: `unknown parameter "${key}" — did you mean "${match}"?` });
      walk.suggestion ??= match;
      suggested.add(match);
      walk.covered.push([...path, match]);
    } else if (additional === false) {
      const known = Object.keys(properties);
      const hint = known.length > 0 ? ` (known parameters: ${known.join(', ')})` : ' (this tool takes no parameters)';
      walk.issues.push({ path: [...path, key], message: `unknown parameter "${key}"${hint}` });
    } else {
      setOwn(out, key, isPlainObject(additional) ? walkValue(additional, raw, [...path, key], walk) : raw);
    }
  }
  for (const name of required) {
    if (ownGet(out, name) === undefined && !suggested.has(name)) walk.issues.push({ path: [...path, name], message: `missing required parameter "${name}"` });
  }
  if (walk.applyDefaults) {
    for (const [name, sub] of Object.entries(properties)) {
      if (ownGet(out, name) === undefined && 'default' in sub) setOwn(out, name, cloneJson(sub['default']));
    }
  }
  return out;
}
