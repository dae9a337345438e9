import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { ToolValidationError } from '../core/errors/tool-validation-error.js';
import type { Message } from '../core/message.js';
import { AgentUsage } from '../core/usage.js';
import { EventBus } from '../events/bus.js';
import { hooksToObserver } from '../events/hooks.js';
import type { AgentObserver } from '../events/observer.js';
import type { AgentEvent } from '../events/types.js';
import { ToolRegistry } from '../tools/registry.js';
import type { ProviderToolSpec } from '../providers/spec.js';
import type { Tool } from '../tools/types.js';
import { AgentAnalytics, type AgentAnalyticsSnapshot } from './analytics.js';
import { AgentStream } from './agent-stream.js';
import { agentTool, type AsToolOptions } from './as-tool.js';
import { runBatch, type BatchOptions } from './batch.js';
import { resolveAgentConfig, type ResolvedAgentConfig } from './config.js';
import { executeRun } from './execute-run.js';
import type { AgentResult } from './result.js';
import { RunAborter } from './run-aborter.js';
import { buildSystemPrompt } from './system-prompt.js';
import { resolveCompression, resolveMemory, resolveSession } from './resolve-memory.js';
import { sessionExtension, type SessionExtension } from '../sessions/session-extension.js';
import type { SessionBinding } from '../sessions/types.js';
import type { ConversationMemory } from '../memory/conversation-memory.js';
import { memoryExtension } from '../memory/memory-extension.js';
import { resolveLongTermMemory, type LongTermMemory } from './resolve-long-term-memory.js';
import type { EntityMemory } from '../memory/entities/entity-memory.js';
import type { KnowledgeGraphMemory } from '../memory/knowledge-graph/knowledge-graph-memory.js';
import type { KnowledgeMemory } from '../memory/knowledge/knowledge-memory.js';
import type { AgentConfig, AgentInput, ResponseCache, RunOptions } from './types.js';

type StreamedRun = (agent: Agent, input: AgentInput, options: RunOptions, onEvent: (event: AgentEvent) => void, aborter: RunAborter, useHistory: boolean) => Promise<AgentResult>;

// Set by Agent's static block (it reaches the private #execute).
let executeStreamed: StreamedRun;

/**
 * @internal For servers (lib/serve): runs `agent` as `agent.stream(input, options)` does, but hands
 * every event to `onEvent` synchronously, as it is emitted, instead of queueing it for an async
 * iterator: no promise per event. `onEvent` must not throw. `aborter` cancels the run as leaving
 * an AgentStream's iteration does. Same events, trace, result and history as `stream`; with
 * `useHistory: false` (graph nodes, lib/graph) the run neither reads nor changes the conversation, as `ask`.
 */
export function runStreamed(agent: Agent, input: AgentInput, options: RunOptions, onEvent: (event: AgentEvent) => void, aborter: RunAborter, useHistory = true): Promise<AgentResult> {
  return executeStreamed(agent, input, options, onEvent, aborter, useHistory);
}

/**
 * A tool-calling agent. `run` continues the agent's conversation; `ask` answers one question
 * without touching it; `stream` runs with live events; `batch` runs many prompts concurrently.
 *
 * @example
 * const agent = new Agent({ provider, tools: [lookupOrder] });
 * const result = await agent.run('Where is order 42?');
 */
export class Agent {
  static {
    executeStreamed = (agent, input, options, onEvent, aborter, useHistory) =>
      agent.#execute(input, options, { streaming: true, useHistory, sink: onEvent, aborter });
  }

  readonly #config: ResolvedAgentConfig;
  readonly #registry = new ToolRegistry();
  readonly #builtWithTools: boolean;
  readonly #bus: EventBus;
  readonly #onObserverError: AgentConfig['onObserverError'];
  readonly #sessionApprovals = new Set<string>();
  readonly #analytics: AgentAnalytics | undefined;
  readonly #memory: ConversationMemory | undefined;
  readonly #session: SessionExtension | undefined;
  readonly #binding: SessionBinding | undefined;
  readonly #longTerm: LongTermMemory;
  #history: Message[] = [];
  #usage = new AgentUsage();
  #systemPrompt = '';
  #toolMap: ReadonlyMap<string, Tool> = new Map();
  #toolSpecs: readonly ProviderToolSpec[] = [];

  constructor(config: AgentConfig) {
    const resolved = resolveAgentConfig(config);
    this.#memory = resolveMemory(config);
    const session = resolveSession(config);
    this.#binding = session;
    const fallbackSummarizer = { provider: resolved.provider, model: resolved.model };
    this.#session = session === undefined || this.#memory === undefined ? undefined : sessionExtension(this.#memory, session, { fallbackSummarizer });
    const own = this.#session?.extension ?? (this.#memory === undefined ? undefined : memoryExtension(this.#memory, { fallbackSummarizer }));
    const compression = resolveCompression(config, resolved.model);
    this.#longTerm = resolveLongTermMemory(config, { provider: resolved.provider, model: resolved.model });
    // Memory (or the session) goes first, so later extensions see the history it restores; then
    // the entity, relationship and long-term blocks; compression goes last, so it sees the
    // messages every other extension prepared.
    const extensions = [...(own === undefined ? [] : [own]), ...this.#longTerm.extensions, ...resolved.extensions, ...(compression === undefined ? [] : [compression])];
    this.#config = extensions.length === resolved.extensions.length ? resolved : { ...resolved, extensions };
    for (const tool of [...(config.tools ?? []), ...this.#longTerm.tools]) this.#registry.add(tool);
    this.#builtWithTools = this.#registry.size > 0;
    const observers: AgentObserver[] = [...(config.observers ?? [])];
    if (config.hooks) observers.push(hooksToObserver(config.hooks));
    if (this.#config.enableAnalytics) {
      this.#analytics = new AgentAnalytics();
      observers.push(this.#analytics);
    }
    this.#onObserverError = config.onObserverError;
    this.#bus = new EventBus(config.onObserverError ? { observers, onObserverError: config.onObserverError } : { observers });
    this.#toolsChanged();
  }

  /** The agent's name (`name` in the config; default `agent`). */
  get name(): string {
    return this.#config.name;
  }

  /** The model runs use unless a modelSelector picks another. */
  get model(): string {
    return this.#config.model;
  }

  /** The provider's name. */
  get providerName(): string {
    return this.#config.provider.name;
  }

  /** The conversation so far (what `run` continues): with a memory, its window (without the summary). */
  get history(): readonly Message[] {
    return this.#memory?.messages ?? this.#history;
  }

  /** The stored session the agent continues (`session` option), when it has one. */
  get session(): SessionBinding | undefined {
    return this.#binding;
  }

  /** The agent's ConversationMemory, when it has one (`memory` or `summarize` options). */
  get memory(): ConversationMemory | undefined {
    return this.#memory;
  }

  /** The agent's EntityMemory (`entityMemory` option), when it has one. */
  get entityMemory(): EntityMemory | undefined {
    return this.#longTerm.entityMemory;
  }

  /** The agent's KnowledgeGraphMemory (`knowledgeGraph` option), when it has one. */
  get knowledgeGraph(): KnowledgeGraphMemory | undefined {
    return this.#longTerm.knowledgeGraph;
  }

  /** The agent's KnowledgeMemory (`knowledgeMemory` option), when it has one. */
  get knowledgeMemory(): KnowledgeMemory | undefined {
    return this.#longTerm.knowledgeMemory;
  }

  /** Usage summed over every run since construction or `reset()`. */
  get usage(): AgentUsage {
    return this.#usage;
  }

  /** Run, LLM and per-tool statistics; undefined unless the agent was built with `enableAnalytics: true`. */
  get analytics(): AgentAnalyticsSnapshot | undefined {
    return this.#analytics?.snapshot();
  }

  /** The cache of LLM replies and cacheable tool results (`cache` in the config), if any. */
  get cache(): ResponseCache | undefined {
    return this.#config.cache;
  }

  /** The tools, in registration order. */
  get tools(): readonly Tool[] {
    return this.#registry.list();
  }

  /** The system prompt sent with every call. */
  get systemPrompt(): string {
    return this.#systemPrompt;
  }

  /** Registers another observer. */
  addObserver(observer: AgentObserver): void {
    this.#bus.addObserver(observer);
  }

  /** Waits until fire-and-forget observers have finished handling every event so far. */
  flushObservers(): Promise<void> {
    return this.#bus.flush();
  }

  /**
   * Runs the agent on `input`, continuing its conversation. With a zod (Standard Schema)
   * `responseFormat`, `result.parsed` is typed from the schema.
   */
  run<S extends StandardSchemaV1>(input: AgentInput, options: RunOptions & { responseFormat: S }): Promise<AgentResult<StandardSchemaV1.InferOutput<S>>>;
  run<P = unknown>(input: AgentInput, options?: RunOptions): Promise<AgentResult<P>>;
  run(input: AgentInput, options: RunOptions = {}): Promise<AgentResult> {
    return this.#execute(input, options, { streaming: false, useHistory: true });
  }

  /** Answers one prompt without reading or changing the conversation history. */
  ask<S extends StandardSchemaV1>(prompt: AgentInput, options: RunOptions & { responseFormat: S }): Promise<AgentResult<StandardSchemaV1.InferOutput<S>>>;
  ask<P = unknown>(prompt: AgentInput, options?: RunOptions): Promise<AgentResult<P>>;
  ask(prompt: AgentInput, options: RunOptions = {}): Promise<AgentResult> {
    return this.#execute(prompt, options, { streaming: false, useHistory: false });
  }

  /** Runs with streaming: iterate the returned AgentStream for events; `.result` gives the AgentResult. Bypasses the response cache. */
  stream(input: AgentInput, options: RunOptions = {}): AgentStream {
    // The consumer leaving aborts the run through the run's own linked signal (no AbortController of its own).
    const aborter = new RunAborter();
    return new AgentStream(
      (push) => this.#execute(input, options, { streaming: true, useHistory: true, sink: push, aborter }),
      (reason) => aborter.abort(reason),
    );
  }

  /**
   * Runs many prompts concurrently, each as an independent conversation (history is neither read
   * nor changed). Results keep input order; a failing prompt gives a result with status `error`.
   */
  batch(prompts: readonly AgentInput[], options: BatchOptions = {}): Promise<AgentResult[]> {
    return runBatch(this.#config, this.#bus, prompts, options, (input, runOptions) =>
      this.#execute(input, runOptions, { streaming: false, useHistory: false }),
    );
  }

  /**
   * Clears history (and the memory with its summary), usage, analytics and session approvals.
   * With a session, the next run's save replaces the stored session with the new conversation.
   */
  reset(): void {
    this.#history = [];
    this.#memory?.clear();
    this.#session?.reset();
    this.#usage = new AgentUsage();
    this.#sessionApprovals.clear();
    this.#analytics?.reset();
  }

  /**
   * This agent as a tool another agent can call with `{ input }`: each call is a nested run (its
   * `parentRunId` is the caller's run, the caller's cancellation reaches it, its events are in the
   * caller's stream and trace under the tool call, its usage and cost are added to the caller's).
   * The nested run does not read or change this agent's conversation.
   */
  asTool(options: AsToolOptions): Tool {
    return agentTool(this.name, options, (input, runOptions, onEvent) => this.#execute(input, runOptions, { streaming: false, useHistory: false, sink: onEvent }));
  }

  /** Adds a tool (duplicate names are rejected) and rebuilds the system prompt. A run in progress offers it from its next model call. */
  addTool(tool: Tool): void {
    this.#registry.add(tool);
    this.#toolsChanged();
  }

  /** Adds several tools. */
  addTools(tools: readonly Tool[]): void {
    for (const tool of tools) this.#registry.add(tool);
    this.#toolsChanged();
  }

  /** Replaces the tool of the same name, or adds it when new. */
  replaceTool(tool: Tool): void {
    this.#registry.replace(tool);
    this.#toolsChanged();
  }

  /** Removes a tool. An agent built with tools keeps at least one. */
  removeTool(name: string): void {
    if (!this.#registry.has(name)) throw new ToolValidationError(`No tool named "${name}" to remove`, { toolName: name });
    if (this.#builtWithTools && this.#registry.size === 1) {
      throw new ConfigurationError(`Cannot remove "${name}": an agent built with tools must keep at least one tool`);
    }
    this.#registry.remove(name);
    this.#toolsChanged();
  }

  /** Called whenever the tools change: caches the tool map, the provider specs and the system prompt. */
  #toolsChanged(): void {
    const tools = this.#registry.list();
    this.#toolMap = new Map(tools.map((t) => [t.name, t]));
    this.#toolSpecs = this.#registry.specs();
    this.#systemPrompt = buildSystemPrompt({
      name: this.#config.name,
      systemPrompt: this.#config.systemPrompt,
      reasoningStrategy: this.#config.reasoningStrategy,
      tools: this.#registry.list(),
      textToolCalls: !this.#config.provider.capabilities.tools,
    });
  }

  async #execute(
    input: AgentInput,
    options: RunOptions,
    mode: { streaming: boolean; useHistory: boolean; sink?: (event: AgentEvent) => void; aborter?: RunAborter },
  ): Promise<AgentResult> {
    const { result, added } = await executeRun({
      config: this.#config,
      bus: this.#bus,
      tools: this.#toolMap,
      toolSpecs: this.#toolSpecs,
      systemPrompt: this.#systemPrompt,
      // addTool / replaceTool / removeTool during the run apply from its next model call.
      toolSet: () => ({ tools: this.#toolMap, toolSpecs: this.#toolSpecs, systemPrompt: this.#systemPrompt }),
      // With a memory, its extension restores the conversation (and stores the run's messages).
      history: mode.useHistory && this.#memory === undefined ? this.#history : [],
      conversation: mode.useHistory,
      sessionApprovals: this.#sessionApprovals,
      input,
      options,
      streaming: mode.streaming,
      sink: mode.sink,
      onObserverError: this.#onObserverError,
      ...(mode.aborter ? { aborter: mode.aborter } : {}),
    });
    if (mode.useHistory && this.#memory === undefined) this.#history.push(...added);
    this.#usage.merge(result.usage);
    return result;
  }
}
