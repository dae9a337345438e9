import { GuardrailError } from '../core/errors/guardrail-error.js';
import { StructuredOutputError } from '../core/errors/structured-output-error.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { ProviderError } from '../core/errors/provider-error.js';
import { linkSignals, NEVER_ABORTED, type LinkedSignal } from '../core/linked-signal.js';
import { assistantMessage, userMessage, type Message } from '../core/message.js';
import { Role } from '../core/role.js';
import { AgentUsage } from '../core/usage.js';
import { EventBus } from '../events/bus.js';
import type { AgentObserver } from '../events/observer.js';
import type { ObserverErrorHandler } from '../events/observer-error.js';
import { serializeError } from '../events/serialized-error.js';
import type { AgentEvent, AgentEventPayloads, RunStatus } from '../events/types.js';
import type { ProviderToolSpec } from '../providers/spec.js';
import type { Tool } from '../tools/types.js';
import { TraceRecorder } from '../trace/recorder.js';
import { positiveInt, type ResolvedAgentConfig } from './config.js';
import type { ExtensionContext } from './extension.js';
import { runLoop, type LoopOutcome } from './loop.js';
import { AgentResult } from './result.js';
import type { RunAborter } from './run-aborter.js';
import type { Emit, EmitDelta, RunState } from './run-state.js';
import { prepareResponseFormat } from './structured-output.js';
import type { AgentInput, RunOptions } from './types.js';

/** Everything one run needs from its Agent. */
export interface ExecuteRunInput {
  config: ResolvedAgentConfig;
  bus: EventBus;
  /** Tools by name at the start of the run. */
  tools: ReadonlyMap<string, Tool>;
  toolSpecs: readonly ProviderToolSpec[];
  systemPrompt: string;
  /**
   * The agent's current tools, specs and system prompt: when given, each model call and tool
   * lookup reads them, so tools added or removed during the run (an MCP server's
   * `tools/list_changed`) apply from the next model call.
   */
  toolSet?: () => Pick<ExecuteRunInput, 'tools' | 'toolSpecs' | 'systemPrompt'>;
  history: readonly Message[];
  /** The run continues the agent's conversation (run, stream) rather than standing alone (ask, batch). */
  conversation: boolean;
  sessionApprovals: Set<string>;
  input: AgentInput;
  options: RunOptions;
  streaming: boolean;
  sink: ((event: AgentEvent) => void) | undefined;
  /** Aborts the run besides the token and `options.signal` (a stream consumer leaving). */
  aborter?: RunAborter;
  /** Reports errors of the run's own observers (`options.observers`): the agent's `onObserverError`. */
  onObserverError?: ObserverErrorHandler | undefined;
}

/** Statuses whose final message is a real answer (output extensions check it). */
const ANSWER_STATUSES: ReadonlySet<RunStatus> = new Set(['completed', 'terminal-tool', 'stop-condition']);

const failedRuns = new WeakMap<object, AgentResult>();

/**
 * The result (status `error`, with the run's real id and trace) of a run that threw `error`, when
 * `error` came out of `Agent.run` / `ask` / `stream`. Lets callers inspect the trace of a failed run.
 */
export function failedRunResult(error: unknown): AgentResult | undefined {
  return typeof error === 'object' && error !== null ? failedRuns.get(error) : undefined;
}

const noop = (): void => undefined;

/**
 * The bus of the run's own observers (`RunOptions.observers`), or undefined when there are none.
 * Anything but an array of objects is refused (ConfigurationError), as the run's other options are.
 */
function runObserverBus(observers: unknown, onObserverError: ObserverErrorHandler | undefined): EventBus | undefined {
  if (observers === undefined) return undefined;
  if (!Array.isArray(observers)) throw new ConfigurationError(`RunOptions.observers must be an array of observers, got ${typeof observers}`, { key: 'observers' });
  const index = observers.findIndex((observer: unknown) => typeof observer !== 'object' || observer === null);
  if (index !== -1) throw new ConfigurationError(`RunOptions.observers[${index}] must be an observer object, got ${observers[index] === null ? 'null' : typeof observers[index]}`, { key: `observers[${index}]` });
  if (observers.length === 0) return undefined;
  return new EventBus({ observers: observers as AgentObserver[], ...(onObserverError === undefined ? {} : { onObserverError }) });
}

/** An extension's payload without the keys the run sets itself (type, runId, timestamp, parentRunId). */
function withoutBaseKeys<T extends object>(payload: T): T {
  const { type: _type, runId: _runId, timestamp: _timestamp, parentRunId: _parent, ...rest } = payload as T & Partial<Record<'type' | 'runId' | 'timestamp' | 'parentRunId', unknown>>;
  return rest as T;
}

function inputSummary(input: AgentInput): string {
  if (typeof input === 'string') return input;
  return input.at(-1)?.content ?? '';
}

function errorStage(error: unknown): AgentEventPayloads['error']['stage'] {
  if (StructuredOutputError.isInstance(error)) return 'structured-output';
  if (GuardrailError.isInstance(error)) return 'guardrail';
  if (ProviderError.isInstance(error)) return 'llm';
  return 'run';
}

/** The input messages with `checkInput` extensions applied to the (last) user text. */
async function checkedInput(config: ResolvedAgentConfig, context: ExtensionContext, messages: Message[]): Promise<Message[]> {
  const index = messages.findLastIndex((m) => m.role === Role.USER);
  const target = messages[index];
  if (!target) return messages;
  let text = target.content;
  for (const extension of config.extensions) {
    if (extension.checkInput) text = await extension.checkInput(context, text);
  }
  if (text !== target.content) messages[index] = { ...target, content: text };
  return messages;
}

/**
 * What this run adds to the conversation: its input, the messages after `beforeRun`, and the final
 * message. A routing-only selection is stored without its tool calls (they were not executed, and
 * providers reject tool calls without results).
 */
function addedMessages(input: readonly Message[], state: RunState, turnStart: number, outcome: LoopOutcome, message: Message): Message[] {
  const added = [...input, ...state.messages.slice(turnStart)];
  if (outcome.status === 'routing-only') {
    const calls = (outcome.message.toolCalls ?? []).map((c) => `${c.toolName}(${JSON.stringify(c.parameters)})`).join(', ');
    added.push(assistantMessage(message.content || `Selected ${calls} (routing only; not executed).`));
  } else if (added.at(-1) === outcome.message) {
    added[added.length - 1] = message;
  } else {
    added.push(message);
  }
  return added;
}

/**
 * Runs one agent run end to end: builds its state and trace recorder, emits `run-start`, runs the
 * loop, applies extension hooks, emits `run-end` (or `error` then `run-end`), and returns the result
 * with the messages the run added to the conversation. A thrown error keeps its type; its failed
 * result (real run id and trace) is available through `failedRunResult(error)`.
 */
export async function executeRun(input: ExecuteRunInput): Promise<{ result: AgentResult; added: Message[] }> {
  const { config, bus, options, sink } = input;
  const runBus = runObserverBus(options.observers, input.onObserverError);
  const { now, generateId } = config.runtime;
  const runId = generateId('run');
  const parentRunId = options.parentRunId ?? config.trace.parentRunId;
  const started = now();
  const recorder = new TraceRecorder({
    runId,
    ...(parentRunId === undefined ? {} : { parentRunId }),
    metadata: { agent: config.name, ...config.trace.metadata },
    toolResultChars: config.trace.toolResultChars,
  });
  // One event object is shared by the trace, the stream and every observer; it must not be mutated.
  const emit: Emit = (type, payload) => {
    const event = (parentRunId === undefined
      ? { type, runId, timestamp: now(), ...payload }
      : { type, runId, timestamp: now(), parentRunId, ...payload }) as AgentEvent;
    return deliver(event);
  };
  const deliver = (event: AgentEvent): void | Promise<void> => {
    recorder.handle(event);
    sink?.(event);
    const shared = bus.emit(event);
    if (runBus === undefined) return shared;
    const own = runBus.emit(event);
    if (own === undefined) return shared;
    return shared === undefined ? own : Promise.all([shared, own]).then(noop);
  };
  // The streaming hot path, once per chunk: the event literal built directly (no payload object,
  // no spread), handed to the stream, and to the bus only when a listener or observer wants it.
  // The run's trace recorder is skipped: it records nothing for the run's own deltas
  // (TraceRecorder.handle returns at once for them; test/lib/agent/stream-fast-path.test.ts pins
  // that), and calling it, like `bus.emit`, means reading the event's fields at sites that see
  // every event type (megamorphic loads), once per chunk.
  const emitDelta: EmitDelta = (type, iteration, text) => {
    const event: AgentEvent = parentRunId === undefined
      ? { type, runId, timestamp: now(), iteration, text }
      : { type, runId, timestamp: now(), parentRunId, iteration, text };
    sink?.(event);
    if (runBus?.hasReceivers(type) === true) {
      const own = runBus.emit(event);
      const shared = bus.hasReceivers(type) ? bus.emit(event) : undefined;
      if (own === undefined) return shared;
      return shared === undefined ? own : Promise.all([shared, own]).then(noop);
    }
    return bus.hasReceivers(type) ? bus.emit(event) : undefined;
  };
  const { aborter } = input;
  const token = config.cancellationToken?.signal;
  // A run that can be aborted from outside (a stream) gets a link of its own, which the aborter
  // aborts; otherwise a run with no source at all shares the never-aborted signal.
  let linked: LinkedSignal | undefined;
  if (aborter !== undefined) {
    const own = linkSignals([token, options.signal], { ownAbort: true });
    aborter.attach((reason) => own.abort(reason));
    linked = own;
  } else if (token !== undefined || options.signal !== undefined) {
    linked = linkSignals([token, options.signal]);
  }
  const signal = linked?.signal ?? NEVER_ABORTED;
  const usage = new AgentUsage();
  const extensionContext: ExtensionContext = {
    runId,
    agentName: config.name,
    signal,
    usage,
    conversation: input.conversation,
    emit: async (type, payload) => emit(type, withoutBaseKeys(payload)),
  };
  const toolSet = input.toolSet ?? ((): Pick<ExecuteRunInput, 'tools' | 'toolSpecs' | 'systemPrompt'> => input);
  const state: RunState = {
    runId,
    config,
    get tools() {
      return toolSet().tools;
    },
    get toolSpecs() {
      return toolSet().toolSpecs;
    },
    get systemPrompt() {
      return toolSet().systemPrompt;
    },
    signal,
    streaming: input.streaming,
    responseFormat: undefined,
    approve: options.approve,
    context: options.context,
    sessionApprovals: input.sessionApprovals,
    emit,
    emitDelta,
    nested: { emit: (event) => void deliver(event), addUsage: (nestedUsage) => usage.merge(nestedUsage) },
    extensionContext,
    messages: [...input.history],
    usage,
    toolCalls: [],
    reasoningHistory: [],
    iteration: 0,
    model: config.model,
    providerUsed: config.provider.name,
    costWarned: false,
  };
  const finish = (status: RunStatus, message: Message, durationMs: number, outcome?: LoopOutcome, error?: unknown): AgentResult =>
    new AgentResult({
      runId,
      status,
      message,
      iterations: state.iteration,
      toolCalls: state.toolCalls,
      usage,
      ...(outcome?.parsed === undefined ? {} : { parsed: outcome.parsed }),
      ...(outcome?.reasoning === undefined ? {} : { reasoning: outcome.reasoning }),
      reasoningHistory: state.reasoningHistory,
      trace: recorder.trace,
      providerUsed: state.providerUsed,
      model: state.model,
      durationMs,
      ...(error === undefined ? {} : { error: serializeError(error) }),
    });

  // Input checks run before `run-start`, so the event (and the trace's user message) carries the
  // input as the guardrails left it, never the raw text a rewrite masked or a block refused. What
  // the checks emit is held back until `run-start` is out.
  const held: (() => void | Promise<void>)[] = [];
  const inputContext: ExtensionContext = { ...extensionContext, emit: async (type, payload) => void held.push(() => emit(type, withoutBaseKeys(payload))) };
  let given: Message[] = typeof input.input === 'string' ? [userMessage(input.input)] : [...input.input];
  let inputError: unknown;
  // Without input checks nothing is awaited here: `run-start` goes out synchronously (runStreamed relies on it).
  if (config.extensions.some((extension) => extension.checkInput !== undefined)) {
    try {
      given = await checkedInput(config, inputContext, given);
    } catch (error) {
      inputError = error ?? new Error('input check failed');
    }
  }
  const shownInput = inputError === undefined ? inputSummary(given) : GuardrailError.isInstance(inputError) ? '[input blocked by a guardrail]' : inputSummary(input.input);
  await emit('run-start', { agentName: config.name, input: shownInput, provider: config.provider.name, model: config.model });
  try {
    for (const release of held) await release();
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows what an input check threw, as it was
    if (inputError !== undefined) throw inputError;
    const format = options.responseFormat ?? config.responseFormat;
    if (format !== undefined) state.responseFormat = prepareResponseFormat(format);
    state.messages.push(...given);
    for (const extension of config.extensions) {
      const replaced = await extension.beforeRun?.(extensionContext, state.messages);
      if (replaced) state.messages = replaced;
    }
    const turnStart = state.messages.length;
    const outcome = await runLoop(state, positiveInt('maxIterations', options.maxIterations, config.maxIterations));
    let message = outcome.message;
    if (ANSWER_STATUSES.has(outcome.status)) {
      for (const extension of config.extensions) {
        if (extension.checkOutput) message = { ...message, content: await extension.checkOutput(extensionContext, message.content) };
      }
    }
    const added = addedMessages(given, state, turnStart, outcome, message);
    for (const extension of config.extensions) await extension.afterRun?.(extensionContext, added, message.content);
    const durationMs = now() - started;
    await emit('run-end', { agentName: config.name, status: outcome.status, content: message.content, iterations: state.iteration, durationMs, usage: usage.toJSON() });
    return { result: finish(outcome.status, message, durationMs, outcome), added };
  } catch (error) {
    await emit('error', { error: serializeError(error), stage: errorStage(error) });
    const durationMs = now() - started;
    await emit('run-end', { agentName: config.name, status: 'error', content: '', iterations: state.iteration, durationMs, usage: usage.toJSON() });
    if (typeof error === 'object' && error !== null) failedRuns.set(error, finish('error', assistantMessage(''), durationMs, undefined, error));
    throw error;
  } finally {
    aborter?.detach();
    linked?.dispose();
    // The run's own observers cannot be flushed by anyone once the run is over: wait for them here.
    await runBus?.flush();
  }
}
