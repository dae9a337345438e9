import { resolve } from 'node:path';
import { loadAgent, type LoadAgentOptions } from '../../config/load-agent.js';
import { ConfigFileError, type ConfigIssue } from '../../core/errors/config-file-error.js';
import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { yamlSyntaxProblems } from '../../core/yaml-syntax-errors.js';
import type { ReadContext } from '../../config/read-context.js';
import { readMapping } from '../../config/read-mapping.js';
import { loadYaml } from '../../config/yaml-module.js';
import { createProvider } from '../../providers/create-provider.js';
import type { Provider } from '../../providers/spec.js';
import { SupervisorAgent } from '../supervisor/supervisor-agent.js';
import type { SupervisorOptions } from '../supervisor/types.js';
import { SUPERVISOR_FIELDS, type SupervisorFileConfig } from './supervisor-fields.js';

/** The `kind:` of a YAML text ('graph', 'supervisor', …), or undefined when it has none. */
export function yamlKind(text: string): string | undefined {
  const doc = loadYaml().parseDocument(text, { prettyErrors: false });
  const kind = doc.errors.length === 0 ? (doc.get('kind')) : undefined;
  return typeof kind === 'string' ? kind : undefined;
}

/**
 * Parses and validates supervisor YAML (`kind: supervisor`): unknown keys (with did-you-mean),
 * wrong types, an unknown strategy, missing agents — every problem at once, as one
 * ConfigFileError with `file:line:col`.
 */
export function parseSupervisorConfig(text: string, options: { source?: string; env?: Readonly<Record<string, string | undefined>> } = {}): SupervisorFileConfig {
  const label = options.source ?? 'supervisor.yaml';
  const yaml = loadYaml();
  const lineCounter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const env = options.env ?? process.env;
  const ctx: ReadContext = { yaml, doc, lineCounter, issues: [], lookup: (name) => env[name], baseDir: process.cwd() };
  for (const problem of yamlSyntaxProblems(doc.errors, text)) {
    const { line, col } = lineCounter.linePos(problem.offset);
    ctx.issues.push({ path: '', line: Math.max(1, line), col: Math.max(1, col), message: `invalid YAML: ${problem.message}` });
  }
  const values = ctx.issues.length > 0 ? undefined : (readMapping(ctx, doc.contents, '', SUPERVISOR_FIELDS) as SupervisorFileConfig | undefined);
  if (ctx.issues.length > 0 || values === undefined) throw new ConfigFileError(label, ctx.issues.sort((a: ConfigIssue, b: ConfigIssue) => a.line - b.line || a.col - b.col));
  return values;
}

function isProvider(value: unknown): value is Provider {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { complete?: unknown }).complete === 'function';
}

/**
 * Builds a SupervisorAgent from a parsed supervisor file: its agents from their agent YAML files
 * (relative to `baseDir`), its provider from `provider:` built by `options.createProvider` when
 * given (a ready `options.provider` replaces it, as for agents).
 */
export async function buildSupervisor(config: SupervisorFileConfig, baseDir: string, source: string, options: LoadAgentOptions = {}): Promise<SupervisorAgent> {
  const agents = [];
  for (const path of config.agents) agents.push(await loadAgent(resolve(baseDir, path), options));
  let provider: Provider;
  if (isProvider(options.provider)) provider = options.provider;
  else {
    try {
      // Through the loader's createProvider (as the agents' providers), so `graph run --record /
      // --replay` records and replays the supervisor's own calls too.
      provider = options.provider === undefined ? await (options.createProvider ?? createProvider)(config.provider, { interpolatedEnv: [] }) : await createProvider(options.provider);
    } catch (error) {
      if (!ConfigurationError.isInstance(error)) throw error;
      throw new ConfigurationError(`${source}: ${error.message}`, { cause: error });
    }
  }
  const supervisorOptions: SupervisorOptions = {
    agents,
    provider,
    strategy: config.strategy,
    ...(config.name === undefined ? {} : { name: config.name }),
    ...(config.plannerModel === undefined ? {} : { plannerModel: config.plannerModel }),
    ...(config.executorModel === undefined ? {} : { executorModel: config.executorModel }),
    ...(config.maxRounds === undefined ? {} : { maxRounds: config.maxRounds }),
    ...(config.maxStalls === undefined ? {} : { maxStalls: config.maxStalls }),
    ...(config.errorPolicy === undefined ? {} : { errorPolicy: config.errorPolicy }),
    ...(config.retry === undefined ? {} : { retry: config.retry }),
    ...(config.maxTotalTokens === undefined ? {} : { maxTotalTokens: config.maxTotalTokens }),
    ...(config.maxCostUsd === undefined ? {} : { maxCostUsd: config.maxCostUsd }),
  };
  try {
    return new SupervisorAgent(supervisorOptions);
  } catch (error) {
    if (!ConfigurationError.isInstance(error)) throw error;
    throw new ConfigurationError(`${source}: ${error.message}`, { cause: error });
  }
}
