import { FilterError } from '../../core/errors/filter-error.js';
import type { Metadata, MetadataScalar } from '../document.js';

/** The comparison operators of a field condition. */
export type ComparisonOperator = '$eq' | '$ne' | '$in' | '$nin' | '$gt' | '$gte' | '$lt' | '$lte';

/** The condition on one metadata field: a scalar (equality) or an operator object. */
export type FieldCondition =
  | MetadataScalar
  | {
      $eq?: MetadataScalar;
      $ne?: MetadataScalar;
      $in?: readonly MetadataScalar[];
      $nin?: readonly MetadataScalar[];
      $gt?: number | string;
      $gte?: number | string;
      $lt?: number | string;
      $lte?: number | string;
    };

/**
 * A metadata filter: `{ source: 'a.md' }`, `{ page: { $gte: 2, $lt: 5 } }`, `{ lang: { $in: ['en', 'de'] } }`,
 * `{ $or: [{ a: 1 }, { b: { $ne: 2 } }] }`. Keys of one object are ANDed.
 */
export interface MetadataFilter {
  $and?: readonly MetadataFilter[];
  $or?: readonly MetadataFilter[];
  [key: string]: FieldCondition | readonly MetadataFilter[] | undefined;
}

/** A checked filter as a tree. */
export type FilterNode =
  | { kind: 'and'; children: FilterNode[] }
  | { kind: 'or'; children: FilterNode[] }
  | { kind: 'compare'; key: string; op: ComparisonOperator; value: MetadataScalar | MetadataScalar[] };

/** Metadata keys a filter may name: a letter or underscore, then letters, digits, `_`, `-`; at most 64. */
export const FILTER_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

const OPERATORS = new Set<string>(['$eq', '$ne', '$in', '$nin', '$gt', '$gte', '$lt', '$lte']);

function isScalar(value: unknown): value is MetadataScalar {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function checkKey(key: string): void {
  if (!FILTER_KEY_PATTERN.test(key)) {
    throw new FilterError(`filter key ${JSON.stringify(key)} is not a plain field name (letters, digits, _ and -, starting with a letter or _)`, { kind: 'invalid-key', at: key });
  }
}

function compileField(key: string, condition: unknown): FilterNode[] {
  checkKey(key);
  if (isScalar(condition)) return [{ kind: 'compare', key, op: '$eq', value: condition }];
  if (typeof condition !== 'object' || Array.isArray(condition)) {
    throw new FilterError(`filter value of ${key} must be a string, number, boolean, null or an operator object`, { kind: 'invalid-value', at: key });
  }
  const nodes: FilterNode[] = [];
  for (const [op, value] of Object.entries(condition as Record<string, unknown>)) {
    if (!OPERATORS.has(op)) {
      throw new FilterError(`unsupported filter operator ${op} on ${key} (supported: ${[...OPERATORS].join(', ')})`, { kind: 'unsupported-operator', at: op });
    }
    if (op === '$in' || op === '$nin') {
      if (!Array.isArray(value) || !value.every(isScalar)) {
        throw new FilterError(`${op} on ${key} takes an array of strings, numbers, booleans or nulls`, { kind: 'invalid-value', at: op });
      }
      nodes.push({ kind: 'compare', key, op, value: [...(value)] });
    } else if (op === '$eq' || op === '$ne') {
      if (!isScalar(value)) throw new FilterError(`${op} on ${key} takes a string, number, boolean or null`, { kind: 'invalid-value', at: op });
      nodes.push({ kind: 'compare', key, op, value });
    } else {
      if (typeof value !== 'string' && (typeof value !== 'number' || !Number.isFinite(value))) {
        throw new FilterError(`${op} on ${key} takes a number or a string`, { kind: 'invalid-value', at: op });
      }
      nodes.push({ kind: 'compare', key, op: op as ComparisonOperator, value });
    }
  }
  if (nodes.length === 0) throw new FilterError(`filter on ${key} has no operator`, { kind: 'invalid-value', at: key });
  return nodes;
}

/**
 * Checks a filter and turns it into a tree; refuses unknown operators (`$regex`, `$exists`, …), keys
 * that are not plain field names, and values of the wrong shape, with a FilterError. An empty filter
 * (or undefined) is undefined: everything matches.
 */
export function compileFilter(filter: MetadataFilter | undefined): FilterNode | undefined {
  if (filter === undefined) return undefined;
  const node = compileObject(filter, 'filter');
  return node.children.length === 0 ? undefined : node.children.length === 1 ? node.children[0] : node;
}

function compileObject(filter: unknown, where: string): { kind: 'and'; children: FilterNode[] } {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) {
    throw new FilterError(`${where} must be an object`, { kind: 'invalid-value', at: where });
  }
  const children: FilterNode[] = [];
  for (const [key, value] of Object.entries(filter as Record<string, unknown>)) {
    if (value === undefined) continue;
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value) || value.length === 0) throw new FilterError(`${key} takes a non-empty array of filters`, { kind: 'invalid-value', at: key });
      const parts = value.map((part, index) => compileObject(part, `${key}[${index}]`));
      children.push({ kind: key === '$and' ? 'and' : 'or', children: parts });
    } else if (key.startsWith('$')) {
      throw new FilterError(`unsupported filter operator ${key} at the top level (supported: $and, $or)`, { kind: 'unsupported-operator', at: key });
    } else {
      children.push(...compileField(key, value));
    }
  }
  return { kind: 'and', children };
}

/** Every comparison operator a tree uses. */
export function filterOperators(node: FilterNode | undefined, into = new Set<string>()): Set<string> {
  if (node === undefined) return into;
  if (node.kind === 'compare') into.add(node.op);
  else {
    into.add(node.kind === 'and' ? '$and' : '$or');
    for (const child of node.children) filterOperators(child, into);
  }
  return into;
}

/** Refuses a tree that uses an operator outside `supported`, naming the store. */
export function requireOperators(node: FilterNode | undefined, supported: ReadonlySet<string>, store: string): void {
  for (const op of filterOperators(node)) {
    if (!supported.has(op)) throw new FilterError(`the ${store} store cannot evaluate the filter operator ${op}`, { kind: 'unsupported-operator', at: op });
  }
}

function compareOrdered(actual: unknown, op: ComparisonOperator, bound: MetadataScalar): boolean {
  if (typeof bound === 'number' ? typeof actual !== 'number' : typeof actual !== 'string') return false;
  const a = actual as number | string;
  const b = bound as number | string;
  switch (op) {
    case '$gt':
      return a > b;
    case '$gte':
      return a >= b;
    case '$lt':
      return a < b;
    default:
      return a <= b;
  }
}

/**
 * Does `metadata` satisfy the tree? A missing field equals null for `$eq`/`$in`, passes `$ne`/`$nin`
 * unless null is listed, and fails every range; ranges compare numbers with numbers and strings
 * with strings only.
 */
export function matchesFilter(metadata: Metadata, node: FilterNode | undefined): boolean {
  if (node === undefined) return true;
  switch (node.kind) {
    case 'and':
      return node.children.every((child) => matchesFilter(metadata, child));
    case 'or':
      return node.children.some((child) => matchesFilter(metadata, child));
    default: {
      const raw = Object.hasOwn(metadata, node.key) ? metadata[node.key] : undefined;
      const actual = raw === undefined ? null : raw;
      switch (node.op) {
        case '$eq':
          return actual === node.value;
        case '$ne':
          return actual !== node.value;
        case '$in':
          return (node.value as MetadataScalar[]).includes(actual as MetadataScalar);
        case '$nin':
          return !(node.value as MetadataScalar[]).includes(actual as MetadataScalar);
        default:
          return compareOrdered(actual, node.op, node.value as MetadataScalar);
      }
    }
  }
}
