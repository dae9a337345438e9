import { isNeverAborted } from '../core/linked-signal.js';
import { closestMatch } from '../core/suggest.js';
import type { ToolCall } from '../core/tool-call.js';
import { toolMessage, type Message } from '../core/message.js';
import { ToolExecutionError } from '../core/errors/tool-execution-error.js';
import { serializeError } from '../events/serialized-error.js';
import type { ToolErrorKind } from '../events/types.js';
import { progressText } from '../tools/progress-text.js';
import type { Tool, ToolOutput, ToolProgress } from '../tools/types.js';
import { estimateTokensSync } from './token-estimate.js';
import { decideToolCall } from '../safety/decide-tool-call.js';
import { denialText, requestApproval } from './approval.js';
import { snapshotArgs } from './args-snapshot.js';
import { cacheRead, cacheWrite } from './cache-io.js';
import { toolResultCacheKey } from './cache-key.js';
import type { CacheHint } from './types.js';
import type { RunState } from './run-state.js';

/** Tool results are only ever served by their exact key. */
const TOOL_HINT: CacheHint = Object.freeze({ kind: 'tool' });

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

const NOT_RUN = 'Error: the run was cancelled before this tool call ran.';

/**
 * Runs the calls of one reply: unknown tool → error result; malformed or invalid arguments → error
 * result; then, on the validated arguments, extensions, policy (deny → review → allow), approval and
 * execution (in parallel unless disabled). Results come back in request order; every call resolves
 * to an outcome, so one failing call never blocks the others. Once the run is cancelled, calls not
 * yet started are not run.
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

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
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

/** One call, never rejecting: anything unexpected (an extension or cache throwing) becomes an error result. */
async function runCall(state: RunState, call: ToolCall): Promise<ToolCallOutcome> {
  if (state.signal.aborted) return failure(call, NOT_RUN);
  const progress = { started: false, at: 0 };
  try {
    return await checkAndRun(state, call, progress);
  } catch (error) {
    const kind: ToolErrorKind = state.signal.aborted ? 'cancelled' : 'execution';
    const wrapped = new ToolExecutionError(`tool call "${call.toolName}" failed: ${messageOf(error)}`, { toolName: call.toolName, callId: call.id, cause: error });
    await reportError(state, call, kind, wrapped, progress.started ? state.config.runtime.now() - progress.at : 0);
    return failure(call, `Error: ${wrapped.message}`);
  }
}

async function checkAndRun(state: RunState, raw: ToolCall, progress: { started: boolean; at: number }): Promise<ToolCallOutcome> {
  const tool = state.tools.get(raw.toolName);
  if (!tool) {
    const suggestion = closestMatch(raw.toolName, state.tools.keys());
    const names = [...state.tools.keys()].join(', ') || '(none)';
    const message = `Error: unknown tool "${raw.toolName}".` + (suggestion ? ` Did you mean "${suggestion}"?` : '') + ` Available tools: ${names}.`;
    await reportError(state, raw, 'unknown-tool', new ToolExecutionError(message, { toolName: raw.toolName, callId: raw.id }), 0);
    return failure(raw, message);
  }
  if (raw.argumentsError !== undefined) {
    const message = `Error: the arguments for tool "${raw.toolName}" are malformed: ${raw.argumentsError}. Send a JSON object that matches the tool's schema.`;
    await reportError(state, raw, 'invalid-arguments', new ToolExecutionError(message, { toolName: raw.toolName, callId: raw.id }), 0);
    return failure(raw, message);
  }
  // Policy, approval, extensions, events and the cache all see the arguments the tool will run
  // with (coerced, defaults applied, transformed), never the raw text the model sent.
  const validated = await tool.validateArgs(raw.parameters);
  if (!validated.ok) {
    await reportError(state, raw, 'invalid-arguments', validated.error, 0);
    return failure(raw, `Error: invalid arguments for tool "${raw.toolName}": ${validated.error.message}`);
  }
  // Everyone but the tool sees a frozen snapshot; the tool runs with `validated.value` itself.
  const call: ToolCall = { ...raw, parameters: snapshotArgs(validated.value) };
  for (const extension of state.config.extensions) {
    const blocked = await extension.beforeTool?.(state.extensionContext, call);
    if (blocked !== undefined) return failure(call, `Error: tool call "${call.toolName}" was blocked: ${blocked}`);
  }
  // Deny wins: requiresApproval only raises allow to review (docs/decisions/0008).
  const decision = decideToolCall(state.config.tools.policy, call.toolName, call.parameters, tool.requiresApproval);
  await state.emit('policy-decision', { callId: call.id, toolName: call.toolName, args: call.parameters, decision: decision.decision, reason: decision.reason });
  if (decision.decision === 'deny') {
    return failure(call, `Error: tool call "${call.toolName}" was denied by policy (${decision.reason}). Do not retry it.`);
  }
  if (decision.decision === 'review') {
    const approval = await requestApproval(state, call, decision.reason);
    if (!approval.approved) return failure(call, denialText(call.toolName, approval, state.config.tools.approvalTimeoutMs));
  }
  if (state.signal.aborted) {
    // Allowed (or approved) but cancelled before it ran: close what the policy decision opened.
    await reportError(state, call, 'cancelled', new ToolExecutionError('the run was cancelled before this tool call ran', { toolName: call.toolName, callId: call.id }), 0);
    return failure(call, NOT_RUN);
  }
  return invokeTool(state, tool, call, validated.value, progress);
}

async function invokeTool(state: RunState, tool: Tool, call: ToolCall, args: Record<string, unknown>, progress: { started: boolean; at: number }): Promise<ToolCallOutcome> {
  const { runtime } = state.config;
  const cacheKey = tool.cacheable && state.config.cache ? toolResultCacheKey(tool.name, call.parameters) : undefined;
  progress.at = runtime.now();
  progress.started = true;
  await state.emit('tool-start', { callId: call.id, toolName: call.toolName, args: call.parameters });
  const site = { what: `tool "${call.toolName}"` };
  const hit = cacheKey === undefined ? undefined : await cacheRead(state, site, cacheKey, TOOL_HINT);
  if (typeof hit === 'string' && cacheKey !== undefined) {
    await state.emit('cache-hit', { kind: 'tool', iteration: state.iteration, key: cacheKey, model: state.model, toolName: call.toolName, callId: call.id });
    if (state.config.verbose) process.stderr.write(`[agentlib] cache hit for tool ${tool.name}\n`);
    return finish(state, tool, call, hit, progress.at, true);
  }
  let output: ToolOutput;
  try {
    output = await invokeCancellable(state, tool, call, args);
  } catch (error) {
    const cancelled = state.signal.aborted;
    const wrapped = new ToolExecutionError(cancelled ? `tool "${call.toolName}" was cancelled` : `tool "${call.toolName}" failed: ${messageOf(error)}`, {
      toolName: call.toolName,
      callId: call.id,
      cause: error,
    });
    await reportError(state, call, cancelled ? 'cancelled' : 'execution', wrapped, runtime.now() - progress.at);
    return failure(call, `Error: ${wrapped.message}`);
  }
  let content = output.content;
  for (const extension of state.config.extensions) {
    if (extension.afterTool) content = await extension.afterTool(state.extensionContext, call, content, tool);
  }
  if (cacheKey !== undefined) await cacheWrite(state, site, cacheKey, content, TOOL_HINT, tool.cacheTtl);
  return finish(state, tool, call, content, progress.at, false);
}

async function finish(state: RunState, tool: Tool, call: ToolCall, content: string, started: number, cached: boolean): Promise<ToolCallOutcome> {
  const durationMs = state.config.runtime.now() - started;
  state.usage.addToolCall(tool.name, estimateTokensSync(content));
  await state.emit('tool-end', { callId: call.id, toolName: call.toolName, args: call.parameters, result: content, durationMs, cached });
  if (state.config.verbose) process.stderr.write(`[agentlib] tool ${tool.name} ${cached ? '(cached) ' : ''}${durationMs} ms\n`);
  return { call, content, isError: false, executed: true, terminal: tool.terminal };
}

/** Invokes a tool, but stops waiting as soon as the run is cancelled (even if the tool ignores its signal). */
async function invokeCancellable(state: RunState, tool: Tool, call: ToolCall, args: Record<string, unknown>): Promise<ToolOutput> {
  if (state.signal.aborted) throw state.signal.reason;
  const onChunk = (chunk: string): void => void state.emit('tool-chunk', { callId: call.id, toolName: call.toolName, chunk });
  // Progress reported after the call settled (a late MCP notification) is dropped: tool-end came first.
  let live = true;
  const progress = (update: ToolProgress): void => {
    if (live) void state.emit('tool-chunk', { callId: call.id, toolName: call.toolName, chunk: progressText(update), progress: { ...update } });
  };
  const base = { runId: state.runId, callId: call.id, toolName: call.toolName, context: state.context, progress, nested: state.nested };
  if (isNeverAborted(state.signal)) {
    // Nothing can cancel this run. The tool still gets a signal of its own: the shared one would
    // grow with every `AbortSignal.any([ctx.signal, …])` a tool makes (Node 20 keeps those links).
    try {
      return await tool.invoke(args, { ...base, signal: new AbortController().signal }, onChunk);
    } finally {
      live = false;
    }
  }
  const run = tool.invoke(args, { ...base, signal: state.signal }, onChunk);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(state.signal.reason as Error);
    // The run may have been cancelled while the tool started (its first synchronous part): no
    // 'abort' event comes after that, so a tool that ignores its signal would be waited for.
    if (state.signal.aborted) onAbort();
    else state.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([run, aborted]);
  } finally {
    live = false;
    if (onAbort) state.signal.removeEventListener('abort', onAbort);
    run.catch(() => undefined); // a tool abandoned on cancellation may still reject later
  }
}
