import type { ConfigIssue } from '../../core/errors/config-file-error.js';
import { yamlSyntaxProblems } from '../../core/yaml-syntax-errors.js';
import type { ReadContext } from '../../config/read-context.js';
import { loadYaml } from '../../config/yaml-module.js';

/** Sort order of issues: by position. */
export function byPosition(a: ConfigIssue, b: ConfigIssue): number {
  return a.line - b.line || a.col - b.col;
}

/**
 * Parses YAML (or JSON, a subset) into a read context for the strict readers of lib/config:
 * syntax problems are already in `issues`, positions are 1-based, `${VAR}` reads `env`.
 */
export function yamlContext(text: string, baseDir: string, env: Readonly<Record<string, string | undefined>>): ReadContext {
  const yaml = loadYaml();
  const lineCounter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const ctx: ReadContext = { yaml, doc, lineCounter, issues: [], lookup: (name) => (Object.hasOwn(env, name) ? env[name] : undefined), baseDir };
  for (const problem of yamlSyntaxProblems(doc.errors, text)) {
    const { line, col } = lineCounter.linePos(problem.offset);
    ctx.issues.push({ path: '', line: Math.max(1, line), col: Math.max(1, col), message: `invalid YAML: ${problem.message}` });
  }
  return ctx;
}

/** The 1-based position of a node. */
export function nodePosition(ctx: ReadContext, node: unknown): { line: number; col: number } {
  const offset = ctx.yaml.isNode(node) ? (node.range?.[0] ?? 0) : 0;
  const { line, col } = ctx.lineCounter.linePos(offset);
  return { line: Math.max(1, line), col: Math.max(1, col) };
}
