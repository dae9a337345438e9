import type * as Yaml from 'yaml';
import type { ConfigIssue } from '../core/errors/config-file-error.js';

/** Everything a reader needs: the yaml module, positions, variables, the issue list. */
export interface ReadContext {
  readonly yaml: typeof Yaml;
  readonly doc: Yaml.Document.Parsed;
  readonly lineCounter: Yaml.LineCounter;
  /** Problems found so far (every reader appends, none throws). */
  readonly issues: ConfigIssue[];
  /** The value of an interpolation variable (caller vars first, then the environment). */
  readonly lookup: (name: string) => string | undefined;
  /** Directory relative paths resolve against (the YAML file's directory). */
  readonly baseDir: string;
}

/** Extra parts of an issue. */
export interface IssueExtra {
  suggestion?: string | undefined;
  hint?: string | undefined;
}

/** Follows an alias (`*anchor`) to the node it names. */
export function deref(ctx: ReadContext, node: unknown): unknown {
  return ctx.yaml.isAlias(node) ? node.resolve(ctx.doc) : node;
}

/** The start offset of a node, when it has a range. */
export function offsetOf(ctx: ReadContext, node: unknown): number | undefined {
  const target = deref(ctx, node);
  return ctx.yaml.isNode(target) ? target.range?.[0] : undefined;
}

/** Records an issue at `where` (a node, or an offset); positions are 1-based. */
export function report(ctx: ReadContext, where: unknown, path: string, message: string, extra: IssueExtra = {}): void {
  const offset = typeof where === 'number' ? where : (offsetOf(ctx, where) ?? 0);
  const { line, col } = ctx.lineCounter.linePos(offset);
  ctx.issues.push({
    path,
    line: Math.max(1, line),
    col: Math.max(1, col),
    message,
    ...(extra.suggestion === undefined ? {} : { suggestion: extra.suggestion }),
    ...(extra.hint === undefined ? {} : { hint: extra.hint }),
  });
}

/** `retry` + `max_retries` → `retry.max_retries`; an index → `tools[2]`. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** `the top level` or `"retry"`, for messages. */
export function where(path: string): string {
  return path === '' ? 'the top level' : `"${path}"`;
}

/** A short description of what a node holds: `a mapping`, `a list`, `the string "x"`, `number 3`. */
export function describeNode(ctx: ReadContext, node: unknown): string {
  const target = deref(ctx, node);
  if (ctx.yaml.isMap(target)) return 'a mapping';
  if (ctx.yaml.isSeq(target)) return 'a list';
  if (ctx.yaml.isScalar(target)) return describeValue(target.value);
  return 'nothing';
}

/** A short description of a plain value. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing (null)';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return `${typeof value} ${String(value)}`;
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a mapping' : typeof value;
}
