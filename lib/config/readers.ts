import { closestMatch } from '../core/suggest.js';
import { interpolate } from './interpolate.js';
import { deref, describeNode, report, type ReadContext } from './read-context.js';

/** Reads and validates one node; returns undefined (after reporting an issue) when invalid. */
export type Reader<T = unknown> = (ctx: ReadContext, node: unknown, path: string) => T | undefined;

/** One key of a YAML mapping: how to read it and how to document it. */
export interface FieldSpec {
  read: Reader;
  /** Type as shown in docs and messages (`integer ≥ 1`). */
  type: string;
  description: string;
  default?: string;
  required?: boolean;
  /** The key in the result; default the camelCase of the YAML key. */
  camel?: string;
  /** Keys of a nested group, for the documented key table. */
  fields?: FieldTable;
}

/** The keys a mapping accepts. */
export type FieldTable = Readonly<Record<string, FieldSpec>>;

/** `max_cost_usd` → `maxCostUsd`. */
export function camelCase(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** A scalar's value with `${VAR}` interpolated; undefined (reported) for non-scalars or unset variables. */
export function scalar(ctx: ReadContext, node: unknown, path: string, expected: string): { value: unknown; interpolated: boolean } | undefined {
  const target = deref(ctx, node);
  if (!ctx.yaml.isScalar(target)) {
    report(ctx, node, path, `"${path}" must be ${expected}; got ${describeNode(ctx, node)}`);
    return undefined;
  }
  if (typeof target.value !== 'string') return { value: target.value, interpolated: false };
  const result = interpolate(target.value, ctx.lookup);
  for (const name of result.missing) {
    report(ctx, node, path, `environment variable "${name}" is not set (used by "${path}")`, {
      hint: `set it, pass it as a variable, or give a default: \${${name}:-value}`,
    });
  }
  for (const bad of result.invalid) {
    report(ctx, node, path, `invalid variable reference ${JSON.stringify(bad)} in "${path}"`, {
      hint: 'write ${NAME} or ${NAME:-default}; write $${ for a literal ${',
    });
  }
  if (result.missing.length > 0 || result.invalid.length > 0) return undefined;
  return { value: result.value, interpolated: result.used };
}

/** A string. */
export function str(options: { nonEmpty?: boolean } = {}): Reader<string> {
  return (ctx, node, path) => {
    const got = scalar(ctx, node, path, 'a string');
    if (got === undefined) return undefined;
    if (typeof got.value !== 'string') {
      report(ctx, node, path, `"${path}" must be a string; got ${describeNode(ctx, node)}`, { hint: 'quote the value' });
      return undefined;
    }
    if (options.nonEmpty === true && got.value.trim() === '') {
      report(ctx, node, path, `"${path}" must not be empty`);
      return undefined;
    }
    return got.value;
  };
}

/** A number (`integer` for whole numbers) within bounds; an interpolated numeric string counts. */
export function num(options: { integer?: boolean; min?: number; max?: number } = {}): Reader<number> {
  const kind = options.integer === true ? 'an integer' : 'a number';
  const { min, max } = options;
  const bounds = min !== undefined && max !== undefined ? ` between ${min} and ${max}` : min !== undefined ? ` ≥ ${min}` : max !== undefined ? ` ≤ ${max}` : '';
  return (ctx, node, path) => {
    const got = scalar(ctx, node, path, `${kind}${bounds}`);
    if (got === undefined) return undefined;
    let value = got.value;
    if (got.interpolated && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) value = Number(value);
    const ok =
      typeof value === 'number' &&
      Number.isFinite(value) &&
      (options.integer !== true || Number.isInteger(value)) &&
      (options.min === undefined || value >= options.min) &&
      (options.max === undefined || value <= options.max);
    if (!ok) {
      report(ctx, node, path, `"${path}" must be ${kind}${bounds}; got ${describeNode(ctx, node)}${got.interpolated ? ` (${JSON.stringify(value)} after interpolation)` : ''}`);
      return undefined;
    }
    return value as number;
  };
}

/** true or false (an interpolated "true"/"false" counts). */
export function bool(): Reader<boolean> {
  return (ctx, node, path) => {
    const got = scalar(ctx, node, path, 'true or false');
    if (got === undefined) return undefined;
    if (typeof got.value === 'boolean') return got.value;
    if (got.interpolated && (got.value === 'true' || got.value === 'false')) return got.value === 'true';
    report(ctx, node, path, `"${path}" must be true or false; got ${describeNode(ctx, node)}`);
    return undefined;
  };
}

/** One of a fixed set of strings, with a did-you-mean. */
export function oneOf<T extends string>(values: readonly T[]): Reader<T> {
  return (ctx, node, path) => {
    const value = str()(ctx, node, path);
    if (value === undefined) return undefined;
    if ((values as readonly string[]).includes(value)) return value as T;
    report(ctx, node, path, `"${path}" must be one of ${values.join(', ')}; got ${JSON.stringify(value)}`, { suggestion: closestMatch(value, values) });
    return undefined;
  };
}
