import { closestMatch } from '../core/suggest.js';
import { childPath, deref, describeNode, report, where, type ReadContext } from './read-context.js';
import { camelCase, type FieldTable, type Reader } from './readers.js';

/** A nested group of keys. */
export function group(fields: FieldTable, options: MappingOptions = {}): Reader<Record<string, unknown>> {
  return (ctx, node, path) => readMapping(ctx, node, path, fields, options);
}

/** Options of {@link readMapping}. */
export interface MappingOptions {
  /** Keys that belong elsewhere: `max_retries` → `retry.max_retries` (offered as the suggestion). */
  moved?: Readonly<Record<string, string>>;
  /**
   * Why a key is refused whatever its value (a setting nothing honours yet), or undefined. Checked
   * first; the issue is placed on the key and the value is not read.
   */
  refuse?: (key: string) => { message: string; hint?: string } | undefined;
}

/**
 * Reads a mapping strictly: unknown keys (with a did-you-mean), wrong types and missing required
 * keys are reported. Returns the valid values under camelCase keys, or undefined when the node is
 * not a mapping at all.
 */
export function readMapping(ctx: ReadContext, node: unknown, path: string, fields: FieldTable, options: MappingOptions = {}): Record<string, unknown> | undefined {
  const target = deref(ctx, node);
  if (!ctx.yaml.isMap(target)) {
    report(ctx, node, path, `${path === '' ? 'the document' : `"${path}"`} must be a mapping of keys; got ${describeNode(ctx, node)}`);
    return undefined;
  }
  const out: Record<string, unknown> = {};
  const known = Object.keys(fields);
  const seen = new Set<string>();
  for (const pair of target.items) {
    const key = ctx.yaml.isScalar(pair.key) ? pair.key.value : undefined;
    if (typeof key !== 'string') {
      report(ctx, pair.key, path, `keys under ${where(path)} must be strings; got ${describeNode(ctx, pair.key)}`);
      continue;
    }
    const refused = options.refuse?.(key);
    if (refused !== undefined) {
      report(ctx, pair.key, childPath(path, key), refused.message, { hint: refused.hint });
      continue;
    }
    const spec = Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (spec === undefined) {
      const moved = options.moved !== undefined && Object.hasOwn(options.moved, key) ? options.moved[key] : undefined;
      const snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      const suggestion = moved ?? (known.includes(snake) ? snake : closestMatch(key, known));
      const hint = suggestion === undefined ? `known keys: ${known.join(', ')}` : moved !== undefined && path !== '' ? `"${moved}" is written at the top level` : undefined;
      report(ctx, pair.key, childPath(path, key), `unknown key "${key}" under ${where(path)}`, { suggestion, hint });
      continue;
    }
    seen.add(key);
    const value = spec.read(ctx, pair.value, childPath(path, key));
    if (value !== undefined) out[spec.camel ?? camelCase(key)] = value;
  }
  for (const [key, spec] of Object.entries(fields)) {
    if (spec.required === true && !seen.has(key)) report(ctx, node, childPath(path, key), `${path === '' ? 'the document' : `"${path}"`} is missing the required key "${key}"`);
  }
  return out;
}
