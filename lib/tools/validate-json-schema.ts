import type { ValidationIssue } from '../core/errors/tool-validation-error.js';
import type { JsonSchema } from '../core/json.js';
import { isPlainObject } from '../core/json.js';
import { declaredTypes, jsonEqual, jsonTypeOf, matchesType, ownGet, requiredOf, resolveRef, type SchemaNode } from './schema-utils.js';

type Path = (string | number)[];

/**
 * Validates `value` against a JSON Schema and returns every problem found (empty when valid).
 * A deliberately small validator covering what tool parameters use: `type`, `enum`, `const`,
 * `properties`, `required`, `additionalProperties`, `items`, `prefixItems`, `minItems`/`maxItems`,
 * `uniqueItems`, `minimum`/`maximum` (and the exclusive forms), `multipleOf`, `minLength`/`maxLength`,
 * `pattern`, `anyOf`/`oneOf`/`allOf`/`not` and local `$ref`s. Unknown keywords (`format`, …) are ignored.
 */
export function validateJsonSchema(schema: SchemaNode, value: unknown, root?: JsonSchema, path: Path = []): ValidationIssue[] {
  if (schema === true) return [];
  if (schema === false) return [{ path, message: 'no value is allowed here' }];
  const top = root ?? schema;
  const resolved = resolveRef(schema, top);
  if (!resolved) return [{ path, message: `cannot resolve schema reference ${String(schema['$ref'])}` }];
  const issues: ValidationIssue[] = [];
  const types = declaredTypes(resolved);
  if (types.length > 0 && !types.some((type) => matchesType(value, type))) {
    return [{ path, message: `expected ${types.join(' or ')}, got ${describe(value, types)}` }];
  }
  const allowed = resolved['enum'];
  if (Array.isArray(allowed) && !allowed.some((option) => jsonEqual(option, value))) {
    issues.push({ path, message: `must be one of ${allowed.map((option) => JSON.stringify(option)).join(', ')}` });
  }
  if ('const' in resolved && !jsonEqual(resolved['const'], value)) {
    issues.push({ path, message: `must be ${JSON.stringify(resolved['const'])}` });
  }
  if (typeof value === 'string') checkString(resolved, value, path, issues);
  else if (typeof value === 'number') checkNumber(resolved, value, path, issues);
  else if (Array.isArray(value)) checkArray(resolved, value, top, path, issues);
  else if (isPlainObject(value)) checkObject(resolved, value, top, path, issues);
  checkCombinators(resolved, value, top, path, issues);
  return issues;
}

function describe(value: unknown, expected: readonly string[]): string {
  if (typeof value === 'number' && expected.includes('integer') && Number.isFinite(value)) return `${value}`;
  return jsonTypeOf(value);
}

function num(schema: JsonSchema, key: string): number | undefined {
  const value = schema[key];
  return typeof value === 'number' ? value : undefined;
}

function checkString(schema: JsonSchema, value: string, path: Path, issues: ValidationIssue[]): void {
  const length = [...value].length;
  const min = num(schema, 'minLength');
  const max = num(schema, 'maxLength');
  if (min !== undefined && length < min) issues.push({ path, message: `must be at least ${min} characters long` });
  if (max !== undefined && length > max) issues.push({ path, message: `must be at most ${max} characters long` });
  const pattern = schema['pattern'];
  if (typeof pattern === 'string') {
    let regex: RegExp | undefined;
    try {
      regex = new RegExp(pattern, 'u');
    } catch {
      regex = undefined;
    }
    if (regex && !regex.test(value)) issues.push({ path, message: `must match the pattern ${pattern}` });
  }
}

function checkNumber(schema: JsonSchema, value: number, path: Path, issues: ValidationIssue[]): void {
  const minimum = num(schema, 'minimum');
  const maximum = num(schema, 'maximum');
  const exclusiveMinimum = num(schema, 'exclusiveMinimum');
  const exclusiveMaximum = num(schema, 'exclusiveMaximum');
  const multipleOf = num(schema, 'multipleOf');
  if (minimum !== undefined && value < minimum) issues.push({ path, message: `must be >= ${minimum}` });
  if (maximum !== undefined && value > maximum) issues.push({ path, message: `must be <= ${maximum}` });
  if (exclusiveMinimum !== undefined && value <= exclusiveMinimum) issues.push({ path, message: `must be > ${exclusiveMinimum}` });
  if (exclusiveMaximum !== undefined && value >= exclusiveMaximum) issues.push({ path, message: `must be < ${exclusiveMaximum}` });
  if (multipleOf !== undefined && multipleOf > 0 && !Number.isInteger(Number((value / multipleOf).toPrecision(12)))) {
    issues.push({ path, message: `must be a multiple of ${multipleOf}` });
  }
}

function checkArray(schema: JsonSchema, value: unknown[], root: JsonSchema, path: Path, issues: ValidationIssue[]): void {
  const min = num(schema, 'minItems');
  const max = num(schema, 'maxItems');
  if (min !== undefined && value.length < min) issues.push({ path, message: `must have at least ${min} items` });
  if (max !== undefined && value.length > max) issues.push({ path, message: `must have at most ${max} items` });
  const prefix = Array.isArray(schema['prefixItems']) ? (schema['prefixItems'] as unknown[]) : [];
  const items = schema['items'];
  value.forEach((item, i) => {
    const sub = i < prefix.length ? prefix[i] : items;
    if (isPlainObject(sub) || typeof sub === 'boolean') issues.push(...validateJsonSchema(sub, item, root, [...path, i]));
  });
  if (schema['uniqueItems'] === true && value.some((item, i) => value.findIndex((other) => jsonEqual(other, item)) !== i)) {
    issues.push({ path, message: 'must not contain duplicate items' });
  }
}

function checkObject(schema: JsonSchema, value: Record<string, unknown>, root: JsonSchema, path: Path, issues: ValidationIssue[]): void {
  for (const name of requiredOf(schema)) {
    if (ownGet(value, name) === undefined) issues.push({ path: [...path, name], message: `missing required parameter "${name}"` });
  }
  const additional = schema['additionalProperties'];
  const declared = isPlainObject(schema['properties']) ? schema['properties'] : {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    const sub = ownGet(declared, key);
    if (isPlainObject(sub) || typeof sub === 'boolean') {
      issues.push(...validateJsonSchema(sub, item, root, [...path, key]));
    } else if (additional === false) {
      issues.push({ path: [...path, key], message: `unknown parameter "${key}"` });
    } else if (isPlainObject(additional)) {
      issues.push(...validateJsonSchema(additional, item, root, [...path, key]));
    }
  }
}

function checkCombinators(schema: JsonSchema, value: unknown, root: JsonSchema, path: Path, issues: ValidationIssue[]): void {
  const branches = (key: string): SchemaNode[] =>
    Array.isArray(schema[key]) ? (schema[key] as unknown[]).filter((s): s is SchemaNode => isPlainObject(s) || typeof s === 'boolean') : [];
  for (const sub of branches('allOf')) issues.push(...validateJsonSchema(sub, value, root, path));
  const anyOf = branches('anyOf');
  if (anyOf.length > 0) {
    const results = anyOf.map((sub) => validateJsonSchema(sub, value, root, path));
    if (!results.some((r) => r.length === 0)) issues.push(...bestBranch(results, path, 'does not match any of the allowed forms'));
  }
  const oneOf = branches('oneOf');
  if (oneOf.length > 0) {
    const results = oneOf.map((sub) => validateJsonSchema(sub, value, root, path));
    const matching = results.filter((r) => r.length === 0).length;
    if (matching === 0) issues.push(...bestBranch(results, path, 'does not match any of the allowed forms'));
    else if (matching > 1) issues.push({ path, message: 'matches more than one of the allowed forms' });
  }
  const not = schema['not'];
  if ((isPlainObject(not) || typeof not === 'boolean') && validateJsonSchema(not, value, root, path).length === 0) {
    issues.push({ path, message: 'matches a form that is not allowed' });
  }
}

/** With one branch, its own issues are the clearest report; otherwise a summary. */
function bestBranch(results: ValidationIssue[][], path: Path, summary: string): ValidationIssue[] {
  return results.length === 1 && results[0] ? results[0] : [{ path, message: summary }];
}
