import type { MetadataScalar } from '../document.js';
import type { FilterNode } from './metadata-filter.js';

/** Builds SQL for one comparison; `param(value)` adds a parameter and returns its placeholder. */
export interface SqlDialect {
  /** The JSON value of a metadata field, with a missing field as JSON null. */
  field(keyParam: string): string;
  /** A JSON literal from a parameter holding JSON text. */
  json(param: string): string;
  /** The field as a number when it is a JSON number, else NULL. */
  number(keyParam: string): string;
  /** The field as text when it is a JSON string, else NULL (compared by code points). */
  string(keyParam: string): string;
  /** `expr IN (list)` for a list of JSON parameters. */
  inList(expr: string, params: string[]): string;
}

/**
 * Translates a checked filter tree into a SQL condition with parameters. Keys and values are
 * always parameters (never spliced into the SQL); the tree was checked by compileFilter.
 */
export function filterToSql(node: FilterNode, dialect: SqlDialect, param: (value: unknown) => string): string {
  switch (node.kind) {
    case 'and':
      return `(${node.children.map((child) => filterToSql(child, dialect, param)).join(' AND ')})`;
    case 'or':
      return `(${node.children.map((child) => filterToSql(child, dialect, param)).join(' OR ')})`;
    default: {
      if ((node.op === '$in' || node.op === '$nin') && (node.value as MetadataScalar[]).length === 0) return node.op === '$in' ? '(1 = 0)' : '(1 = 1)';
      const key = param(node.key);
      switch (node.op) {
        case '$eq':
          return `(${dialect.field(key)} = ${dialect.json(param(JSON.stringify(node.value)))})`;
        case '$ne':
          return `(${dialect.field(key)} <> ${dialect.json(param(JSON.stringify(node.value)))})`;
        case '$in':
        case '$nin': {
          const values = node.value as MetadataScalar[];
          const list = dialect.inList(dialect.field(key), values.map((value) => dialect.json(param(JSON.stringify(value)))));
          return node.op === '$in' ? `(${list})` : `(NOT ${list})`;
        }
        default: {
          const op = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[node.op];
          const bound = node.value as number | string;
          return typeof bound === 'number' ? `(${dialect.number(key)} ${op} ${param(bound)})` : `(${dialect.string(key)} ${op} ${param(bound)})`;
        }
      }
    }
  }
}
