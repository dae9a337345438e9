import type { JsonSchema } from '../../core/json.js';

/** Keys of the OpenAPI-subset `Schema` that the Gemini API accepts; everything else is dropped. */
const KEPT = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);

/** String formats Gemini accepts (others are rejected with 400). */
const STRING_FORMATS = new Set(['enum', 'date-time']);

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function resolveRef(ref: string, root: Node): Node | undefined {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match) return undefined;
  const defs = root[match[1]!];
  const target = isNode(defs) ? defs[match[2]!.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return isNode(target) ? target : undefined;
}

function sanitizeNode(input: Node, root: Node, seen: readonly Node[]): Node {
  let node = input;
  if (typeof node.$ref === 'string') {
    const target = resolveRef(node.$ref, root);
    // A recursive reference cannot be inlined: fall back to an unconstrained object.
    if (!target || seen.includes(target)) return { type: 'object' };
    const { $ref: _ref, ...rest } = node;
    node = { ...target, ...rest };
    seen = [...seen, target];
  }
  const out: Node = {};
  let nullable = node.nullable === true;
  let type: unknown = node.type;
  if (Array.isArray(type)) {
    const types = (type as unknown[]).filter((t) => t !== 'null');
    if (types.length < type.length) nullable = true;
    type = types.length === 1 ? types[0] : undefined;
    if (types.length > 1) out.anyOf = types.map((t) => ({ type: t }));
  }
  const variants = node.anyOf ?? node.oneOf;
  if (Array.isArray(variants)) {
    const kept = variants.filter((v) => !(isNode(v) && v.type === 'null'));
    if (kept.length < variants.length) nullable = true;
    if (kept.length === 1 && isNode(kept[0])) Object.assign(out, sanitizeNode(kept[0], root, seen));
    else if (kept.length > 1) out.anyOf = kept.filter(isNode).map((v) => sanitizeNode(v, root, seen));
  }
  if (Array.isArray(node.allOf) && node.allOf.length === 1 && isNode(node.allOf[0])) Object.assign(out, sanitizeNode(node.allOf[0], root, seen));
  if (node.const !== undefined && node.enum === undefined) {
    out.enum = [node.const];
    type ??= typeof node.const === 'string' ? 'string' : undefined;
  }
  for (const [key, value] of Object.entries(node)) {
    if (!KEPT.has(key) || key === 'type' || key === 'anyOf' || key === 'nullable') continue;
    if (key === 'properties' && isNode(value)) {
      const properties: Node = {};
      for (const [name, child] of Object.entries(value)) properties[name] = isNode(child) ? sanitizeNode(child, root, seen) : {};
      if (Object.keys(properties).length > 0) out.properties = properties;
    } else if (key === 'items') {
      if (isNode(value)) out.items = sanitizeNode(value, root, seen);
      else if (Array.isArray(value) && isNode(value[0])) out.items = sanitizeNode(value[0], root, seen);
    } else if (key === 'enum' && Array.isArray(value)) {
      // Gemini enums are strings only.
      out.enum = value.filter((v) => v !== null).map(String);
      type = 'string';
    } else if (key === 'format') {
      if (typeof value === 'string' && (type !== 'string' || STRING_FORMATS.has(value))) out.format = value;
    } else if (key === 'required' && Array.isArray(value)) {
      if (value.length > 0) out.required = value;
    } else {
      out[key] = value;
    }
  }
  if (typeof type === 'string') out.type = type;
  // Gemini needs a typed `items`: item-less (or unconstrained `items: {}`) arrays get string items.
  if (out.type === 'array' && (!isNode(out.items) || Object.keys(out.items).length === 0)) out.items = { type: 'string' };
  if (out.type === 'object' && !isNode(out.properties)) delete out.required;
  if (isNode(out.properties) && Array.isArray(out.required)) {
    const names = out.properties;
    const required = (out.required as unknown[]).filter((name) => typeof name === 'string' && Object.hasOwn(names, name));
    if (required.length > 0) out.required = required;
    else delete out.required;
  }
  if (nullable) out.nullable = true;
  return out;
}

/**
 * Rewrites a JSON Schema into the OpenAPI subset Gemini accepts: drops `additionalProperties`,
 * `$schema`, `$defs` and other unsupported keys, inlines local `$ref`s, turns `type: [T, 'null']`
 * and `anyOf [T, null]` into `nullable`, `const` into a one-value enum, gives item-less arrays
 * `items`, removes empty `properties`/`required` and unsupported string formats.
 */
export function sanitizeGeminiSchema(schema: JsonSchema): Record<string, unknown> {
  const root = schema as unknown;
  return isNode(root) ? sanitizeNode(root, root, []) : { type: 'object' };
}

/** A tool's parameters, sanitised; undefined for a tool without parameters (Gemini rejects an empty object). */
export function sanitizeToolParameters(schema: JsonSchema): Record<string, unknown> | undefined {
  const out = sanitizeGeminiSchema(schema);
  return out.type === 'object' && !isNode(out.properties) ? undefined : out;
}
