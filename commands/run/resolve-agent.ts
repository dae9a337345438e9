import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import { closestMatch } from '../../lib/core/suggest.js';
import type { Agent } from '../../lib/agent/agent.js';
import type { AgentObserver } from '../../lib/events/observer.js';
import { loadAgent, type LoadAgentOptions } from '../../lib/config/load-agent.js';
import { templatePath } from '../../lib/config/templates.js';
import { createProvider, type ProviderSpec } from '../../lib/providers/create-provider.js';
import { RecordingProvider } from '../../lib/providers/replay/recording-provider.js';
import { ReplayProvider } from '../../lib/providers/replay/replay-provider.js';
import { UsageError } from '../../cli/usage-error.js';

/** What `agentlib run` asks for when it builds the agent. */
export interface AgentRequest {
  /** A path to an agent YAML, or a template name. */
  ref: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  vars: Readonly<Record<string, string>>;
  model?: string;
  provider?: string;
  maxIterations?: number;
  record?: string;
  replay?: string;
  /** With `replay`: answer recorded calls as often as a request matches them (`serve`, `chat`; `run` replays each once). */
  reuseRecordings?: boolean;
  /** The provider's first-byte and idle timeouts (`--timeout` / `--provider-timeout`), and the flag that set them. */
  providerTimeout?: { ms: number; flag: string };
  observers?: readonly AgentObserver[];
  /** Continue this stored session (`agentlib chat --session`). */
  sessionId?: string;
  /** `--cache [url]`: a cache store URL (relative `sqlite://` paths against `cwd`); it replaces the file's `cache:`. `false` (`--no-cache`): no cache, whatever the file says. */
  cache?: string | false;
  /** Connects the file's MCP servers (see commands/run/mcp-connections.ts). */
  mcpTools?: LoadAgentOptions['mcpTools'];
  /** Keeps each loaded agent's MCP tools in step with its servers (`tools/list_changed`). */
  followMcpTools?: (agent: Agent) => void;
}

/** The agent plus what the run command reports about it. */
export interface ResolvedAgent {
  agent: Agent;
  /** The YAML file the agent came from. */
  file: string;
  recorder?: RecordingProvider;
  replay?: ReplayProvider;
}

function looksLikePath(ref: string): boolean {
  return ref.includes('/') || ref.includes('\\') || /\.ya?ml$/i.test(ref);
}

/** Where an agent comes from and how to load it: the file, the loadAgent options, and the record/replay wrappers (filled in as the provider is created). */
export interface AgentLoadPlan {
  file: string;
  options: LoadAgentOptions;
  resolved: Pick<Partial<ResolvedAgent>, 'recorder' | 'replay'>;
}

/**
 * Loads the agent: a YAML path (relative to the working directory) or a bundled template name,
 * with command-line overrides, and the provider wrapped for `--record` or replaced for `--replay`.
 */
export async function resolveAgent(request: AgentRequest): Promise<ResolvedAgent> {
  const plan = await withCacheFlag(planAgentLoad(request), request);
  const agent = await loadAgent(plan.file, plan.options);
  request.followMcpTools?.(agent);
  return { ...plan.resolved, agent, file: plan.file };
}

/** Opens the store `--cache <url>` names into the plan's config (it then replaces the file's `cache:`); `--no-cache` is already in the plan's options. */
export async function withCacheFlag(plan: AgentLoadPlan, request: Pick<AgentRequest, 'cache' | 'cwd'>): Promise<AgentLoadPlan> {
  if (typeof request.cache !== 'string') return plan;
  const { openCache } = await import('../../lib/cache/open-cache.js');
  plan.options.config = { ...plan.options.config, cache: openCache(request.cache, { cwd: request.cwd }) };
  return plan;
}

/** The file and options {@link resolveAgent} loads (`agentlib serve` builds an AgentConfig from them instead of an Agent). */
export function planAgentLoad(request: AgentRequest): AgentLoadPlan {
  if (request.record !== undefined && request.replay !== undefined) throw new UsageError('--record and --replay cannot be used together.');
  const path = isAbsolute(request.ref) ? request.ref : resolve(request.cwd, request.ref);
  const file = looksLikePath(request.ref) || existsSync(path) ? path : templatePath(request.ref);
  if (!existsSync(file)) throw missingFile(request.ref, file, request.cwd);
  const options: LoadAgentOptions = { vars: request.vars, env: request.env };
  if (request.model !== undefined) options.model = request.model;
  if (request.maxIterations !== undefined) options.maxIterations = request.maxIterations;
  if (request.sessionId !== undefined) options.sessionId = request.sessionId;
  if (request.providerTimeout !== undefined) {
    if (request.replay !== undefined) throw new UsageError(`${request.providerTimeout.flag} has no effect with --replay (the cassette answers; no provider is called).`);
    const { ms } = request.providerTimeout;
    options.providerTimeouts = { firstByteTimeoutMs: ms, idleTimeoutMs: ms };
  }
  if (request.observers !== undefined) options.config = { observers: [...request.observers] };
  if (request.mcpTools !== undefined) options.mcpTools = request.mcpTools;
  if (request.cache === false) options.ignoreFileCache = true;
  const resolved: AgentLoadPlan['resolved'] = {};
  if (request.replay !== undefined) {
    const replay = ReplayProvider.fromFile(resolve(request.cwd, request.replay), { env: request.env, reuse: request.reuseRecordings ?? false });
    options.provider = replay;
    resolved.replay = replay;
  } else {
    if (request.provider !== undefined) options.provider = request.provider as ProviderSpec;
    if (request.record !== undefined) {
      const cassette = resolve(request.cwd, request.record);
      options.createProvider = async (spec, context) => {
        // Values interpolated from the environment into the file are scrubbed like secrets.
        const recorder = new RecordingProvider(await createProvider(spec), { path: cassette, env: request.env, scrubEnv: context.interpolatedEnv });
        resolved.recorder = recorder;
        return recorder;
      };
    }
  }
  return { file, options, resolved };
}

/** "No such agent file", with the closest YAML file of that directory as a suggestion. */
function missingFile(ref: string, file: string, cwd: string): UsageError {
  let names: string[] = [];
  try {
    names = readdirSync(dirname(file)).filter((name) => /\.ya?ml$/i.test(name));
  } catch {
    // the directory does not exist either
  }
  const close = closestMatch(basename(file), names);
  const suggestion = close === undefined ? undefined : relative(cwd, resolve(dirname(file), close));
  return new UsageError(`No agent file "${ref}".${suggestion === undefined ? '' : ` Did you mean "${suggestion}"?`}`, suggestion === undefined ? {} : { suggestion });
}
