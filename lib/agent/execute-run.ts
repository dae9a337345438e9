import { userMessage, type Message } from '../core/message.js';
import { AgentUsage } from '../core/usage.js';
import type { EventBus } from '../events/bus.js';
import { serializeError } from '../events/serialized-error.js';
import type { AgentEvent } from '../events/types.js';
import type { ProviderToolSpec } from '../providers/spec.js';
import type { Tool } from '../tools/types.js';
import { TraceRecorder } from '../trace/recorder.js';
import type { ResolvedAgentConfig } from './config.js';
import type { ExtensionContext } from './extension.js';
import { runLoop } from './loop.js';
import { AgentResult } from './result.js';
import type { Emit, RunState } from './run-state.js';
import { prepareResponseFormat } from './structured-output.js';
import type { AgentInput, RunOptions } from './types.js';

/** Everything one run needs from its Agent. */
export interface ExecuteRunInput {
  config: ResolvedAgentConfig;
  bus: EventBus;
  /** Tools by name, fixed for the run. */
  tools: ReadonlyMap<string, Tool>;
  toolSpecs: readonly ProviderToolSpec[];
  systemPrompt: string;
  history: readonly Message[];
  sessionApprovals: Set<string>;
  input: AgentInput;
  options: RunOptions;
  streaming: boolean;
  sink: ((event: AgentEvent) => void) | undefined;
}

const NEVER_ABORTED = new AbortController().signal;

function runSignal(config: ResolvedAgentConfig, options: RunOptions): AbortSignal {
  const signals: AbortSignal[] = [];
  if (config.cancellationToken) signals.push(config.cancellationToken.signal);
  if (options.signal) signals.push(options.signal);
  if (signals.length === 0) return NEVER_ABORTED;
  return signals.length === 1 ? (signals[0] as AbortSignal) : AbortSignal.any(signals);
}

function inputSummary(input: AgentInput): string {
  if (typeof input === 'string') return input;
  return input.at(-1)?.content ?? '';
}

/**
 * Runs one agent run end to end: builds its state and trace recorder, emits `run-start`, runs the
 * loop, applies extension hooks, emits `run-end` (or `error` then `run-end`), and returns the result
 * with the messages the run added to the conversation.
 */
export async function executeRun(input: ExecuteRunInput): Promise<{ result: AgentResult; added: Message[] }> {
  const { config, bus, options, sink } = input;
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
  const emit: Emit = (type, payload) => {
    const event = { type, runId, timestamp: now(), ...payload } as AgentEvent;
    if (parentRunId !== undefined) event.parentRunId = parentRunId;
    recorder.handle(event);
    sink?.(event);
    return bus.emit(event);
  };
  const signal = runSignal(config, options);
  const usage = new AgentUsage();
  const extensionContext: ExtensionContext = {
    runId,
    agentName: config.name,
    signal,
    usage,
    emit: async (type, payload) => emit(type, payload),
  };
  const responseFormat = options.responseFormat ?? config.responseFormat;
  const state: RunState = {
    runId,
    config,
    tools: input.tools,
    toolSpecs: input.toolSpecs,
    systemPrompt: input.systemPrompt,
    signal,
    streaming: input.streaming,
    responseFormat: responseFormat === undefined ? undefined : prepareResponseFormat(responseFormat),
    approve: options.approve,
    context: options.context,
    sessionApprovals: input.sessionApprovals,
    emit,
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

  await emit('run-start', { agentName: config.name, input: inputSummary(input.input), provider: config.provider.name, model: config.model });
  try {
    const base = input.history.length;
    if (typeof input.input === 'string') {
      let text = input.input;
      for (const extension of config.extensions) {
        if (extension.checkInput) text = await extension.checkInput(extensionContext, text);
      }
      state.messages.push(userMessage(text));
    } else {
      state.messages.push(...input.input);
    }
    for (const extension of config.extensions) {
      const replaced = await extension.beforeRun?.(extensionContext, state.messages);
      if (replaced) state.messages = replaced;
    }
    const maxIterations = options.maxIterations ?? config.maxIterations;
    const outcome = await runLoop(state, maxIterations);
    let message = outcome.message;
    if (outcome.status === 'completed') {
      for (const extension of config.extensions) {
        if (extension.checkOutput) message = { ...message, content: await extension.checkOutput(extensionContext, message.content) };
      }
    }
    const added = state.messages.slice(Math.min(base, state.messages.length));
    if (added.at(-1) !== outcome.message) added.push(message);
    else added[added.length - 1] = message;
    for (const extension of config.extensions) await extension.afterRun?.(extensionContext, added, message.content);
    const durationMs = now() - started;
    await emit('run-end', {
      agentName: config.name,
      status: outcome.status,
      content: message.content,
      iterations: state.iteration,
      durationMs,
      usage: usage.toJSON(),
    });
    const result = new AgentResult({
      runId,
      status: outcome.status,
      message,
      iterations: state.iteration,
      toolCalls: state.toolCalls,
      usage,
      ...(outcome.parsed === undefined ? {} : { parsed: outcome.parsed }),
      ...(outcome.reasoning === undefined ? {} : { reasoning: outcome.reasoning }),
      reasoningHistory: state.reasoningHistory,
      trace: recorder.trace,
      providerUsed: state.providerUsed,
      model: state.model,
      durationMs,
    });
    return { result, added };
  } catch (error) {
    await emit('error', { error: serializeError(error), stage: 'run' });
    await emit('run-end', {
      agentName: config.name,
      status: 'error',
      content: '',
      iterations: state.iteration,
      durationMs: now() - started,
      usage: usage.toJSON(),
    });
    throw error;
  }
}
