import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ConfigFileError, type ConfigIssue } from '../../core/errors/config-file-error.js';
import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { closestMatch } from '../../core/suggest.js';
import { yamlSyntaxProblems } from '../../core/yaml-syntax-errors.js';
import { report, type ReadContext } from '../../config/read-context.js';
import { readMapping } from '../../config/read-mapping.js';
import { loadYaml } from '../../config/yaml-module.js';
import { GRAPH_FIELDS, type GraphFileConfig } from './graph-fields.js';

/** A parsed graph file with where it came from. */
export interface LoadedGraphConfig extends GraphFileConfig {
  /** The file (absolute). */
  source: string;
  /** The directory its relative paths resolve against. */
  baseDir: string;
}

const END_NAMES = new Set(['END', '__end__']);

/**
 * Parses and validates graph YAML (`kind: graph`): unknown keys (with did-you-mean), wrong types,
 * a node that is not exactly one of agent / function / graph / parallel, an entry, edge or
 * `next` naming no node — every problem at once, as one ConfigFileError with `file:line:col`.
 */
export function parseGraphConfig(text: string, options: { source?: string; baseDir?: string; env?: Readonly<Record<string, string | undefined>> } = {}): LoadedGraphConfig {
  const label = options.source ?? 'graph.yaml';
  const baseDir = resolve(options.baseDir ?? process.cwd());
  const yaml = loadYaml();
  const lineCounter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const env = options.env ?? process.env;
  const ctx: ReadContext = { yaml, doc, lineCounter, issues: [], lookup: (name) => env[name], baseDir };
  for (const problem of yamlSyntaxProblems(doc.errors, text)) {
    const { line, col } = lineCounter.linePos(problem.offset);
    ctx.issues.push({ path: '', line: Math.max(1, line), col: Math.max(1, col), message: `invalid YAML: ${problem.message}` });
  }
  const fail = (): never => {
    throw new ConfigFileError(label, ctx.issues.sort((a: ConfigIssue, b: ConfigIssue) => a.line - b.line || a.col - b.col));
  };
  if (ctx.issues.length > 0) fail();
  const values = readMapping(ctx, doc.contents, '', GRAPH_FIELDS) as GraphFileConfig | undefined;
  if (values?.nodes) {
    const names = Object.keys(values.nodes);
    const members = new Set(Object.values(values.nodes).flatMap((n) => Object.keys(n.parallel ?? {})));
    const at = (path: (string | number)[]): unknown => doc.getIn(path, true);
    const check = (name: string | undefined, path: (string | number)[], what: string, endOk: boolean): void => {
      if (name === undefined || names.includes(name) || (endOk && END_NAMES.has(name))) return;
      const member = members.has(name) ? ` ("${name}" is a parallel member: name its group)` : '';
      report(ctx, at(path), path.join('.'), `${what} "${name}" is not a node${member}`, { suggestion: closestMatch(name, names) });
    };
    check(values.entry, ['entry'], 'the entry', false);
    for (const [name, node] of Object.entries(values.nodes)) {
      check(node.next, ['nodes', name, 'next'], `the next node of "${name}"`, true);
      for (const member of Object.keys(node.parallel ?? {})) if (names.includes(member)) report(ctx, at(['nodes', name, 'parallel', member]), `nodes.${name}.parallel.${member}`, `parallel member "${member}" has the name of a node`);
    }
    values.edges?.forEach((edge, i) => {
      check(edge.from, ['edges', i, 'from'], 'the edge source', false);
      check(edge.to, ['edges', i, 'to'], 'the edge target', true);
      if (values.nodes[edge.from]?.next !== undefined) report(ctx, at(['edges', i]), `edges[${i}]`, `node "${edge.from}" already has "next"`);
    });
    const routed = new Set<string>();
    values.conditionalEdges?.forEach((edge, i) => {
      check(edge.from, ['conditional_edges', i, 'from'], 'the conditional edge source', false);
      edge.targets?.forEach((t, j) => check(t, ['conditional_edges', i, 'targets', j], 'the router target', true));
      if (routed.has(edge.from)) report(ctx, at(['conditional_edges', i]), `conditional_edges[${i}]`, `node "${edge.from}" has two conditional edges`);
      routed.add(edge.from);
      if (!edge.router.includes('#')) report(ctx, at(['conditional_edges', i, 'router']), `conditional_edges[${i}].router`, `"router" is written module#export (./routers.mjs#route); got "${edge.router}"`);
    });
    const functions = (node: { function?: string }, path: string[]): void => {
      if (node.function !== undefined && !node.function.includes('#')) report(ctx, at([...path, 'function']), [...path, 'function'].join('.'), `"function" is written module#export (./nodes.mjs#write); got "${node.function}"`);
    };
    for (const [name, node] of Object.entries(values.nodes)) {
      functions(node, ['nodes', name]);
      for (const [member, m] of Object.entries(node.parallel ?? {})) functions(m, ['nodes', name, 'parallel', member]);
    }
  }
  if (ctx.issues.length > 0 || values === undefined) fail();
  return { ...(values as GraphFileConfig), source: resolve(baseDir, label), baseDir };
}

/** Reads and validates a graph YAML file (see parseGraphConfig). */
export async function loadGraphConfig(path: string, options: { env?: Readonly<Record<string, string | undefined>> } = {}): Promise<LoadedGraphConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigurationError(`cannot read graph file "${path}": ${(error as Error).message}`, { cause: error });
  }
  return { ...parseGraphConfig(text, { ...options, source: path, baseDir: dirname(resolve(path)) }), source: resolve(path) };
}
