import { childPath, deref, describeNode, report } from './read-context.js';
import { scalar, type Reader } from './readers.js';

/** A list whose items `item` reads; invalid items are reported and left out. */
export function list<T>(item: Reader<T>, options: { nonEmpty?: boolean } = {}): Reader<T[]> {
  return (ctx, node, path) => {
    const target = deref(ctx, node);
    if (!ctx.yaml.isSeq(target)) {
      const example = ctx.yaml.isScalar(target) ? ` (write ${path.split('.').pop() ?? path}: [${String(target.value)}])` : '';
      report(ctx, node, path, `"${path}" must be a list; got ${describeNode(ctx, node)}${example}`);
      return undefined;
    }
    if (options.nonEmpty === true && target.items.length === 0) {
      report(ctx, node, path, `"${path}" must not be empty`);
      return undefined;
    }
    const out: T[] = [];
    let ok = true;
    target.items.forEach((child, i) => {
      const value = item(ctx, child, childPath(path, i));
      if (value === undefined) ok = false;
      else out.push(value);
    });
    return ok ? out : undefined;
  };
}

/** A mapping of free-form names to values `value` reads (environment variables, headers, metadata). */
export function record<T>(value: Reader<T>): Reader<Record<string, T>> {
  return (ctx, node, path) => {
    const target = deref(ctx, node);
    if (!ctx.yaml.isMap(target)) {
      report(ctx, node, path, `"${path}" must be a mapping; got ${describeNode(ctx, node)}`);
      return undefined;
    }
    const out: Record<string, T> = {};
    let ok = true;
    for (const pair of target.items) {
      const key = ctx.yaml.isScalar(pair.key) ? pair.key.value : undefined;
      if (typeof key !== 'string' && typeof key !== 'number') {
        report(ctx, pair.key, path, `keys under "${path}" must be strings`);
        ok = false;
        continue;
      }
      const read = value(ctx, pair.value, childPath(path, String(key)));
      if (read === undefined) ok = false;
      else Object.defineProperty(out, String(key), { value: read, enumerable: true, writable: true, configurable: true });
    }
    return ok ? out : undefined;
  };
}

/** Any plain YAML value (strings interpolated): metadata. */
export const plain: Reader = (ctx, node, path) => {
  const target = deref(ctx, node);
  if (ctx.yaml.isMap(target)) return record(plain)(ctx, target, path);
  if (ctx.yaml.isSeq(target)) return list(plain)(ctx, target, path);
  const got = scalar(ctx, node, path, 'a value');
  return got === undefined ? undefined : got.value;
};
