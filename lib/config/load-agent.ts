import { Agent } from '../agent/agent.js';
import type { AgentConfig } from '../agent/types.js';
import { ConfigFileError } from '../core/errors/config-file-error.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { ProviderTimeoutOptions } from '../providers/call-timeouts.js';
import { createProvider, withProviderTimeouts, type ProviderSpec } from '../providers/create-provider.js';
import { longTermMemoryOptions } from './long-term-memory-settings.js';
import type { Provider } from '../providers/spec.js';
import type { ConversationMemoryOptions } from '../memory/conversation-memory.js';
import type { SessionBinding } from '../sessions/types.js';
import { openConfiguredSessionStore } from './session-settings.js';
import { ToolPolicy } from '../safety/tool-policy.js';
import { safetyFromFile } from './build-safety.js';
import { loadConfiguredTools } from './load-tools.js';
import { openConfiguredCache } from './open-configured-cache.js';
import { openConfiguredRetrieval } from './open-configured-retrieval.js';
import { loadAgentConfig } from './parse-agent-config.js';
import type { Tool } from '../tools/types.js';
import type { AgentConfigOptions, AgentFileConfig, McpServerSettings } from './types.js';

/** Options of {@link loadAgent}: overrides of the file (they win) and injected dependencies. */
export interface LoadAgentOptions extends AgentConfigOptions {
  /**
   * A ready provider (tests, custom adapters) or a spec replacing the file's `provider:` (`--provider`).
   * A spec of another provider type than the file's also drops the file's `model` (unless `model` is given).
   */
  provider?: Provider | ProviderSpec;
  /**
   * Timeouts set on every provider built from a spec (the file's or `provider`), over the file's
   * own (`--timeout`). Refused with a ready Provider: set them on it instead.
   */
  providerTimeouts?: ProviderTimeoutOptions;
  /** Replaces the file's `model` (`--model`). */
  model?: string;
  /** Replaces the file's `max_iterations`. */
  maxIterations?: number;
  /** Any other AgentConfig fields (observers, runtime, cache, confirmAction …); groups merge over the file's. */
  config?: Partial<Omit<AgentConfig, 'provider'>>;
  /** Continue this session (`agentlib chat --session`): in the file's `session:` store, else the default SQLite store. */
  sessionId?: string;
  /** Leave the file's `cache:` closed (`--no-cache`): the agent runs without a cache unless `config.cache` gives one. */
  ignoreFileCache?: boolean;
  /** Store URL used instead of the file's `session:` store (`sqlite://…`, `redis://…`, `file://…`, `memory://`). */
  sessionStore?: string;
  /**
   * Builds the provider from its spec. Default `createProvider`. `context.interpolatedEnv` names the
   * environment variables interpolated into the file (a recorder scrubs their values).
   */
  createProvider?: (spec: ProviderSpec, context: ProviderContext) => Promise<Provider>;
  /** Imports tool modules by file URL (default dynamic `import()`). */
  importModule?: (url: string) => Promise<unknown>;
  /**
   * Connects the file's MCP servers (`mcp.servers`) and returns their tools. The caller owns the
   * connections and closes them (the CLI uses `connectAgentMcp` of agentlib/mcp). Required when the
   * file lists MCP servers: without it loading such a file is refused rather than the servers ignored.
   */
  mcpTools?: (servers: readonly McpServerSettings[], file: { source: string; baseDir: string }) => Promise<readonly Tool[]>;
}

/** What {@link LoadAgentOptions.createProvider} is told about the file besides the provider spec. */
export interface ProviderContext {
  /** Environment variables whose values were interpolated into the file (`${NAME}`). */
  interpolatedEnv: readonly string[];
}

function isProvider(value: unknown): value is Provider {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { complete?: unknown }).complete === 'function';
}

/** Drops undefined values (exactOptionalPropertyTypes). */
function compact<T extends object>(value: { [K in keyof T]?: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

async function providerFor(config: AgentFileConfig, options: LoadAgentOptions, label: string): Promise<Provider> {
  if (isProvider(options.provider)) {
    if (options.providerTimeouts !== undefined) {
      throw new ConfigurationError(`${label}: providerTimeouts apply to providers built from a spec; set the timeouts on the ready provider instead`, { key: 'providerTimeouts' });
    }
    return options.provider;
  }
  const fromFile = options.provider ?? config.provider;
  const spec = fromFile === undefined || options.providerTimeouts === undefined ? fromFile : withProviderTimeouts(fromFile, options.providerTimeouts);
  if (spec === undefined) {
    throw new ConfigFileError(label, [{ path: 'provider', line: 1, col: 1, message: 'no provider: the file has no "provider" key and none was passed', hint: 'add e.g. provider: openai' }]);
  }
  try {
    return await (options.createProvider ?? createProvider)(spec, { interpolatedEnv: config.interpolatedEnv ?? [] });
  } catch (error) {
    if (!ConfigurationError.isInstance(error)) throw error;
    throw new ConfigurationError(`${label}: ${error.message}`, { ...(error.key === undefined ? {} : { key: error.key }), ...(error.suggestion === undefined ? {} : { suggestion: error.suggestion }), cause: error });
  }
}

function typeOf(spec: ProviderSpec | undefined): string | undefined {
  const first = Array.isArray(spec) ? (spec as readonly ProviderSpec[])[0] : spec;
  return typeof first === 'string' ? first : (first as { type?: string } | undefined)?.type;
}

/**
 * The file's model, unless `options.provider` replaces the file's provider with a spec of another
 * type (never send one provider's model id to another; the new provider's default applies).
 */
function fileModel(config: AgentFileConfig, options: LoadAgentOptions): string | undefined {
  if (options.provider === undefined || isProvider(options.provider)) return config.model;
  return typeOf(options.provider) === typeOf(config.provider) ? config.model : undefined;
}

/**
 * Builds an Agent from a validated config: creates the provider (`createProvider`, unless one is
 * passed), imports the tools, builds the ToolPolicy, and applies `options` overrides.
 * `entity_memory`, `knowledge_graph` and `knowledge_memory` open their stores (default SQLite
 * `.agentlib/agentlib.db`, files under `.agentlib/memory`); the tools of `mcp.servers` come from
 * `options.mcpTools`.
 */
export async function createAgentFromConfig(config: AgentFileConfig, options: LoadAgentOptions = {}, label = config.source): Promise<Agent> {
  return new Agent(await buildAgentConfig(config, options, label));
}

/**
 * What {@link createAgentFromConfig} passes to `new Agent()`: the provider created, the tools
 * imported, the policy built, `options` applied. Build it once and construct a fresh Agent from it
 * whenever independent state is needed (the HTTP server does so per request).
 */
export async function buildAgentConfig(config: AgentFileConfig, options: LoadAgentOptions = {}, label = config.source): Promise<AgentConfig> {
  const tools = await loadConfiguredTools(config, label, options.importModule === undefined ? {} : { importModule: options.importModule });
  const servers = config.mcp?.servers ?? [];
  if (servers.length > 0) {
    if (options.mcpTools === undefined) {
      throw new ConfigurationError(`${label} lists MCP servers (${servers.map((s) => s.name).join(', ')}): load it with an MCP connector (options.mcpTools; agentlib run and chat connect them)`, { key: 'mcp' });
    }
    tools.push(...(await options.mcpTools(servers, { source: config.source, baseDir: config.baseDir })));
  }
  const retrieval = config.retrieval === undefined ? undefined : await openConfiguredRetrieval(config.retrieval, label, config.baseDir);
  if (retrieval !== undefined) tools.push(retrieval.tool);
  const provider = await providerFor(config, options, label);
  const extra = options.config ?? {};
  const extensions = [...(retrieval === undefined ? [] : [retrieval.extension]), ...(extra.extensions ?? [])];
  const policy = config.policy === undefined ? undefined : new ToolPolicy(config.policy.options);
  const toolConfig = compact<NonNullable<AgentConfig['toolConfig']>>({ parallel: config.toolConfig?.parallel, approvalTimeout: config.toolConfig?.approvalTimeout, policy, ...extra.toolConfig });
  const safety = await safetyFromFile(config, (spec) => providerFor(config, { ...options, provider: spec }, label));
  const longTerm = await longTermMemoryOptions(config, provider, (spec) => (options.createProvider ?? createProvider)(spec, { interpolatedEnv: config.interpolatedEnv ?? [] }), label);
  const observers = [...safety.observers, ...(extra.observers ?? [])];
  return compact<AgentConfig>({
    ...safety.fields,
    ...extra,
    ...(observers.length === 0 ? {} : { observers }),
    ...(extensions.length === 0 ? {} : { extensions }),
    provider,
    name: extra.name ?? config.name,
    model: options.model ?? extra.model ?? fileModel(config, options),
    systemPrompt: extra.systemPrompt ?? config.systemPrompt,
    temperature: extra.temperature ?? config.temperature,
    maxTokens: extra.maxTokens ?? config.maxTokens,
    maxIterations: options.maxIterations ?? extra.maxIterations ?? config.maxIterations,
    reasoningStrategy: extra.reasoningStrategy ?? config.reasoningStrategy,
    routingOnly: extra.routingOnly ?? config.routingOnly,
    verbose: extra.verbose ?? config.verbose,
    enableAnalytics: extra.enableAnalytics ?? config.enableAnalytics,
    tools: [...tools, ...(extra.tools ?? [])],
    retry: { ...config.retry, ...extra.retry },
    budget: { ...config.budget, ...extra.budget },
    toolConfig,
    trace: { ...config.trace, ...extra.trace },
    structured: { ...config.structured, ...extra.structured },
    memory: extra.memory ?? (await memoryOptions(config, options, label)),
    session: extra.session ?? (await sessionBinding(config, options, label)),
    compress: extra.compress ?? config.compress,
    entityMemory: extra.entityMemory ?? longTerm.entityMemory,
    knowledgeGraph: extra.knowledgeGraph ?? longTerm.knowledgeGraph,
    knowledgeMemory: extra.knowledgeMemory ?? longTerm.knowledgeMemory,
    cache: extra.cache ?? (config.cache === undefined || options.ignoreFileCache === true ? undefined : await openConfiguredCache(config.cache, provider, label, config.baseDir)),
  });
}

/**
 * The session the agent continues: `options.sessionId` or `session.id`, in `options.sessionStore`
 * or the store `session:` names (default SQLite). A `session:` without an id anywhere is refused:
 * nothing would be saved.
 */
async function sessionBinding(config: AgentFileConfig, options: LoadAgentOptions, label: string): Promise<SessionBinding | undefined> {
  const settings = config.session;
  const id = options.sessionId ?? settings?.id;
  if (id === undefined) {
    if (settings === undefined) return undefined;
    throw new ConfigurationError(`${label}: session: has no id, so nothing would be saved; set session.id, or give one per run (agentlib chat --session <id>; agentlib serve takes session_id per request)`, { key: 'session.id' });
  }
  const store = await openConfiguredSessionStore(settings ?? {}, config.name ?? 'agent', label, options.sessionStore);
  return { store, id, ...(settings?.ttl === undefined ? {} : { ttl: settings.ttl }) };
}

/** `memory:` as ConversationMemory options (each Agent built from them gets its own memory), with its summary provider created. */
async function memoryOptions(config: AgentFileConfig, options: LoadAgentOptions, label: string): Promise<ConversationMemoryOptions | undefined> {
  const memory = config.memory;
  if (memory === undefined) return undefined;
  const { summarizeProvider: spec, ...rest } = memory;
  if (spec === undefined) return rest;
  try {
    return { ...rest, summarizeProvider: await (options.createProvider ?? createProvider)(spec, { interpolatedEnv: config.interpolatedEnv ?? [] }) };
  } catch (error) {
    if (!ConfigurationError.isInstance(error)) throw error;
    throw new ConfigurationError(`${label}: memory.summarize_provider: ${error.message}`, { key: 'memory.summarize_provider', cause: error });
  }
}

/**
 * Loads an agent YAML file into a ready Agent: validates it (every problem at once, as a
 * ConfigFileError with positions), creates the provider, loads the tools, builds the policy.
 *
 * @example
 * const agent = await loadAgent('agent.yaml', { vars: { REGION: 'eu' }, model: 'gpt-4o-mini' });
 * const result = await agent.run('Where is order 42?');
 */
export async function loadAgent(path: string, options: LoadAgentOptions = {}): Promise<Agent> {
  const config = await loadAgentConfig(path, options);
  return createAgentFromConfig(config, options, path);
}
