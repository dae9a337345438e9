import type { MetadataScalar } from '../document.js';
import type { FilterNode } from './metadata-filter.js';

/** A SQL string literal (single quotes doubled; LanceDB's `where` takes no bound parameters). */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** A finite number as a SQL literal. */
function sqlNumber(value: number): string {
  return Number.isInteger(value) && Math.abs(value) < 1e15 ? `${value}.0` : String(value);
}

/**
 * A checked filter tree (compileFilter: keys are plain field names, values scalars) as a LanceDB /
 * DataFusion predicate over `column`, a JSON column (`arrow.json`). Every comparison is two-valued
 * (`COALESCE(…, FALSE)`), so `$ne` / `$nin` match documents that lack the field, exactly like
 * matchesFilter; numbers compare with numbers and strings with strings only.
 */
export function filterToLance(node: FilterNode, column: string): string {
  switch (node.kind) {
    case 'and':
      return node.children.length === 0 ? 'TRUE' : `(${node.children.map((child) => filterToLance(child, column)).join(' AND ')})`;
    case 'or':
      return node.children.length === 0 ? 'FALSE' : `(${node.children.map((child) => filterToLance(child, column)).join(' OR ')})`;
    default: {
      const field = new LanceField(column, node.key);
      switch (node.op) {
        case '$eq':
          return field.equals(node.value as MetadataScalar);
        case '$ne':
          return `(NOT ${field.equals(node.value as MetadataScalar)})`;
        case '$in':
        case '$nin': {
          const values = node.value as MetadataScalar[];
          const any = values.length === 0 ? 'FALSE' : `(${values.map((value) => field.equals(value)).join(' OR ')})`;
          return node.op === '$in' ? any : `(NOT ${any})`;
        }
        default:
          return field.ordered(node.op, node.value as number | string);
      }
    }
  }
}

const RANGE: Readonly<Record<string, string>> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };

/** One metadata field of the JSON column, as SQL expressions. */
class LanceField {
  readonly #column: string;
  readonly #key: string;

  constructor(column: string, key: string) {
    this.#column = column;
    this.#key = key;
  }

  /** The field's JSON text (`"a"`, `3`, `true`, `null`), NULL when absent. */
  get #json(): string {
    return `json_extract(${this.#column}, '$["${this.#key}"]')`;
  }

  get #isNumber(): string {
    return `regexp_like(${this.#json}, '^-?[0-9]')`;
  }

  get #isString(): string {
    return `starts_with(${this.#json}, '"')`;
  }

  #number(): string {
    return `json_get_float(${this.#column}, ${sqlString(this.#key)})`;
  }

  #string(): string {
    return `json_get_string(${this.#column}, ${sqlString(this.#key)})`;
  }

  /** The field equals `value` (an absent field equals null). */
  equals(value: MetadataScalar): string {
    if (value === null) return `COALESCE(${this.#json} = 'null', TRUE)`;
    if (typeof value === 'boolean') return `COALESCE(${this.#json} = '${value}', FALSE)`;
    if (typeof value === 'number') return `COALESCE(${this.#isNumber} AND ${this.#number()} = ${sqlNumber(value)}, FALSE)`;
    return `COALESCE(${this.#isString} AND ${this.#string()} = ${sqlString(value)}, FALSE)`;
  }

  /** A range comparison: numbers with numbers, strings with strings (byte order). */
  ordered(op: string, bound: number | string): string {
    const symbol = RANGE[op] as string;
    if (typeof bound === 'number') return `COALESCE(${this.#isNumber} AND ${this.#number()} ${symbol} ${sqlNumber(bound)}, FALSE)`;
    return `COALESCE(${this.#isString} AND ${this.#string()} ${symbol} ${sqlString(bound)}, FALSE)`;
  }
}
