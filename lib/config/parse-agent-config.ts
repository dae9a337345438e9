import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ConfigFileError, type ConfigIssue } from '../core/errors/config-file-error.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { yamlSyntaxProblems } from '../core/yaml-syntax-errors.js';
import { AGENT_FIELDS, MOVED_KEYS } from './agent-fields.js';
import type { ReadContext } from './read-context.js';
import { readMapping } from './read-mapping.js';
import type { AgentConfigOptions, AgentFileConfig, ParseAgentConfigOptions } from './types.js';
import { loadYaml } from './yaml-module.js';

function byPosition(a: ConfigIssue, b: ConfigIssue): number {
  return a.line - b.line || a.col - b.col;
}

/** A lookup for `${NAME}`: caller variables first, then the environment; adds to `fromEnv` the names the environment answered. */
function variables(options: AgentConfigOptions, fromEnv: Set<string>): (name: string) => string | undefined {
  const env = options.env ?? process.env;
  const vars = options.vars ?? {};
  return (name) => {
    if (Object.hasOwn(vars, name)) return vars[name];
    if (!Object.hasOwn(env, name) || env[name] === undefined) return undefined;
    fromEnv.add(name);
    return env[name];
  };
}

/**
 * Parses and validates agent YAML text. Every problem in the file (YAML syntax, unknown keys,
 * wrong types, unset variables, unresolvable tool sources, paths outside the config directory) is
 * collected in one pass and thrown as one {@link ConfigFileError} with `file:line:col` positions.
 *
 * @example
 * const config = parseAgentConfig('provider: openai\nmodel: gpt-4o-mini\n', { source: 'agent.yaml', baseDir: process.cwd() });
 */
export function parseAgentConfig(text: string, options: ParseAgentConfigOptions = {}): AgentFileConfig {
  const label = options.source ?? 'agent.yaml';
  const baseDir = resolve(options.baseDir ?? process.cwd());
  const yaml = loadYaml();
  const lineCounter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const fromEnv = new Set<string>();
  const ctx: ReadContext = { yaml, doc, lineCounter, issues: [], lookup: variables(options, fromEnv), baseDir };
  for (const problem of yamlSyntaxProblems(doc.errors, text)) {
    const { line, col } = lineCounter.linePos(problem.offset);
    ctx.issues.push({ path: '', line: Math.max(1, line), col: Math.max(1, col), message: `invalid YAML: ${problem.message}` });
  }
  if (ctx.issues.length > 0) throw new ConfigFileError(label, ctx.issues.sort(byPosition));
  const values = readMapping(ctx, doc.contents, '', AGENT_FIELDS, { moved: MOVED_KEYS });
  if (ctx.issues.length > 0 || values === undefined) throw new ConfigFileError(label, ctx.issues.sort(byPosition));
  const interpolated = fromEnv.size === 0 ? {} : { interpolatedEnv: [...fromEnv] };
  return { source: options.source === undefined ? label : resolve(baseDir, options.source), baseDir, ...interpolated, tools: [], ...values };
}

/**
 * Reads and validates an agent YAML file (see {@link parseAgentConfig}); paths in it resolve
 * against the file's directory. Creates no provider and imports no tool module.
 */
export async function loadAgentConfig(path: string, options: AgentConfigOptions = {}): Promise<AgentFileConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigurationError(`cannot read agent config "${path}": ${(error as Error).message}`, { cause: error });
  }
  const config = parseAgentConfig(text, { ...options, source: path, baseDir: dirname(resolve(path)) });
  return { ...config, source: resolve(path) };
}
