import { closestMatch } from '../core/suggest.js';
import type { ToolCall } from '../core/tool-call.js';
import { toolMessage, type Message } from '../core/message.js';
import { ToolExecutionError } from '../core/errors/tool-execution-error.js';
import { serializeError } from '../events/serialized-error.js';
import type { ToolErrorKind } from '../events/types.js';
import type { Tool } from '../tools/types.js';
import { estimateTokensSync } from './token-estimate.js';
import { denialText, requestApproval } from './approval.js';
import { toolResultCacheKey } from './cache-key.js';
import type { RunState } from './run-state.js';

/** What one requested tool call came to. */
export interface ToolCallOutcome {
  call: ToolCall;
  /** The text fed back to the model. */
  content: string;
  isError: boolean;
  /** True when the tool actually ran (or was served from the tool cache). */
  executed: boolean;
  /** True when a terminal tool ran successfully. */
  terminal: boolean;
}

/**
 * Runs the calls of one reply: unknown tool → error result; policy (deny → review → allow);
 * approval; argument validation; execution (in parallel unless disabled). Results come back in
 * request order, and one failing call never blocks the others.
 */
export async function executeToolCalls(state: RunState, calls: readonly ToolCall[]): Promise<ToolCallOutcome[]> {
  if (state.config.tools.parallel && calls.length > 1) {
    return Promise.all(calls.map((call) => runCall(state, call)));
  }
  const outcomes: ToolCallOutcome[] = [];
  for (const call of calls) outcomes.push(await runCall(state, call));
  return outcomes;
}

/** The TOOL messages of a set of outcomes, in request order. */
export function outcomeMessages(outcomes: readonly ToolCallOutcome[]): Message[] {
  return outcomes.map((o) => toolMessage(o.call, o.content, o.isError));
}

function failure(call: ToolCall, content: string): ToolCallOutcome {
  return { call, content, isError: true, executed: false, terminal: false };
}

async function reportError(state: RunState, call: ToolCall, kind: ToolErrorKind, error: unknown, durationMs: number): Promise<void> {
  await state.emit('tool-error', {
    callId: call.id,
    toolName: call.toolName,
    args: call.parameters,
    error: serializeError(error),
    kind,
    durationMs,
  });
}

async function runCall(state: RunState, call: ToolCall): Promise<ToolCallOutcome> {
  const tool = state.tools.get(call.toolName);
  if (!tool) {
    const suggestion = closestMatch(call.toolName, state.tools.keys());
    const names = [...state.tools.keys()].join(', ') || '(none)';
    const message =
      `Error: unknown tool "${call.toolName}".` + (suggestion ? ` Did you mean "${suggestion}"?` : '') + ` Available tools: ${names}.`;
    await reportError(state, call, 'unknown-tool', new ToolExecutionError(message, { toolName: call.toolName, callId: call.id }), 0);
    return failure(call, message);
  }
  if (call.argumentsError !== undefined) {
    const message = `Error: the arguments for tool "${call.toolName}" are malformed: ${call.argumentsError}. Send a JSON object that matches the tool's schema.`;
    await reportError(state, call, 'invalid-arguments', new ToolExecutionError(message, { toolName: call.toolName, callId: call.id }), 0);
    return failure(call, message);
  }
  for (const extension of state.config.extensions) {
    const blocked = await extension.beforeTool?.(state.extensionContext, call);
    if (blocked !== undefined) return failure(call, `Tool call "${call.toolName}" was blocked: ${blocked}`);
  }
  const decision = tool.requiresApproval
    ? { decision: 'review' as const, reason: `tool "${tool.name}" requires approval` }
    : (state.config.tools.policy?.evaluate(call.toolName, call.parameters) ?? { decision: 'allow' as const, reason: 'no tool policy' });
  await state.emit('policy-decision', {
    callId: call.id,
    toolName: call.toolName,
    args: call.parameters,
    decision: decision.decision,
    reason: decision.reason,
  });
  if (decision.decision === 'deny') {
    return failure(call, `Error: tool call "${call.toolName}" was denied by policy (${decision.reason}). Do not retry it.`);
  }
  if (decision.decision === 'review') {
    const approval = await requestApproval(state, call, decision.reason);
    if (!approval.approved) return failure(call, denialText(call.toolName, approval, state.config.tools.approvalTimeoutMs));
  }
  return validateAndInvoke(state, tool, call);
}

async function validateAndInvoke(state: RunState, tool: Tool, call: ToolCall): Promise<ToolCallOutcome> {
  const validated = await tool.validateArgs(call.parameters);
  if (!validated.ok) {
    await reportError(state, call, 'invalid-arguments', validated.error, 0);
    return failure(call, `Error: invalid arguments for tool "${call.toolName}": ${validated.error.message}`);
  }
  const { cache, runtime } = state.config;
  const cacheKey = tool.cacheable && cache ? toolResultCacheKey(tool.name, call.parameters) : undefined;
  const started = runtime.now();
  await state.emit('tool-start', { callId: call.id, toolName: call.toolName, args: call.parameters });
  if (cache && cacheKey) {
    const hit: unknown = await cache.get(cacheKey);
    if (typeof hit === 'string') return finish(state, tool, call, hit, started, true);
  }
  try {
    const output = await invokeCancellable(state, tool, call, validated.value);
    let content = output.content;
    for (const extension of state.config.extensions) {
      if (extension.afterTool) content = await extension.afterTool(state.extensionContext, call, content);
    }
    if (cache && cacheKey) await cache.set(cacheKey, content, tool.cacheTtl);
    return await finish(state, tool, call, content, started, false);
  } catch (error) {
    const durationMs = runtime.now() - started;
    const cancelled = state.signal.aborted;
    const wrapped = new ToolExecutionError(
      cancelled ? `tool "${call.toolName}" was cancelled` : `tool "${call.toolName}" failed: ${(error as Error)?.message ?? String(error)}`,
      { toolName: call.toolName, callId: call.id, cause: error },
    );
    await reportError(state, call, cancelled ? 'cancelled' : 'execution', wrapped, durationMs);
    return failure(call, `Error: ${wrapped.message}`);
  }
}

async function finish(state: RunState, tool: Tool, call: ToolCall, content: string, started: number, cached: boolean): Promise<ToolCallOutcome> {
  const durationMs = state.config.runtime.now() - started;
  state.usage.addToolCall(tool.name, estimateTokensSync(content));
  await state.emit('tool-end', { callId: call.id, toolName: call.toolName, args: call.parameters, result: content, durationMs, cached });
  if (state.config.verbose) process.stderr.write(`[agentlib] tool ${tool.name} ${cached ? '(cached) ' : ''}${durationMs} ms\n`);
  return { call, content, isError: false, executed: true, terminal: tool.terminal };
}

/** Invokes a tool, but stops waiting as soon as the run is cancelled (even if the tool ignores its signal). */
async function invokeCancellable(state: RunState, tool: Tool, call: ToolCall, args: unknown) {
  const ctx = { signal: state.signal, runId: state.runId, callId: call.id, toolName: call.toolName, context: state.context };
  const onChunk = (chunk: string): void => void state.emit('tool-chunk', { callId: call.id, toolName: call.toolName, chunk });
  const run = tool.invoke(args as Record<string, unknown>, ctx, onChunk);
  if (state.signal.aborted) throw state.signal.reason;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(state.signal.reason as Error);
    state.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([run, aborted]);
  } finally {
    if (onAbort) state.signal.removeEventListener('abort', onAbort);
  }
}
