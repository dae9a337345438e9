import type { ApprovalDecision, ApprovalHandler } from '../agent/types.js';
import { generateId } from '../core/ids.js';
import { decideToolCall } from '../safety/decide-tool-call.js';
import type { ToolPolicy } from '../safety/tool-policy.js';
import type { Tool, ToolProgress } from '../tools/types.js';

/** How calls that arrive over MCP are checked: the same policy and approvals as an agent's own calls. */
export interface ServeCallRules {
  /** Allow / review / deny rules; without one every tool is allowed (except `requiresApproval` tools). */
  policy?: ToolPolicy;
  /** Answers review-gated calls; without one they are denied. */
  approve?: ApprovalHandler;
  /** Milliseconds to wait for an approval (a timeout denies). Default 60000; 0 waits indefinitely. */
  approvalTimeoutMs?: number;
  /** The `context` tools receive. */
  context?: unknown;
}

/** What one MCP tool call came to. */
export interface ServeCallOutcome {
  text: string;
  isError: boolean;
  /** True when the tool ran. */
  executed: boolean;
}

function approved(decision: ApprovalDecision): { ok: boolean; feedback?: string } {
  if (typeof decision === 'boolean') return { ok: decision };
  return decision.feedback === undefined ? { ok: decision.approved === true } : { ok: decision.approved === true, feedback: decision.feedback };
}

async function askApproval(rules: ServeCallRules, tool: Tool, args: Record<string, unknown>, reason: string, signal: AbortSignal): Promise<{ ok: boolean; why: string }> {
  const handler = rules.approve;
  if (handler === undefined) return { ok: false, why: `it needs approval (${reason}) and this MCP server has no approver` };
  const timeoutMs = rules.approvalTimeoutMs ?? 60_000;
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<'timeout'>((resolve) => {
      if (timeoutMs > 0) timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const request = { runId: 'mcp', callId: generateId('call'), toolName: tool.name, args, reason, signal: controller.signal };
    const answer = await Promise.race([Promise.resolve(handler(request)), timeout]);
    if (answer === 'timeout') return { ok: false, why: `it was not approved within ${Math.round(timeoutMs / 1000)} s` };
    const { ok, feedback } = approved(answer);
    return { ok, why: feedback === undefined ? 'the approver denied it' : `the approver denied it: ${feedback}` };
  } catch (error) {
    return { ok: false, why: `the approver failed: ${(error as Error).message}` };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    controller.abort();
  }
}

/**
 * Runs one call that arrived over MCP: arguments validated (and coerced) like an agent's, then the
 * policy (deny → review → allow, `requiresApproval` raising allow to review), then the approver
 * for a review, then the tool with the request's AbortSignal (the client's cancellation) and, when
 * the client asked for progress, `progress` as the tool's `ctx.progress`. Every
 * refusal and failure is an error result the client can read; nothing runs unless allowed.
 */
export async function serveToolCall(tool: Tool, rawArgs: unknown, rules: ServeCallRules, signal: AbortSignal, progress?: (update: ToolProgress) => void): Promise<ServeCallOutcome> {
  const validated = await tool.validateArgs(rawArgs ?? {});
  if (!validated.ok) return { text: `Invalid arguments for tool "${tool.name}": ${validated.error.message}`, isError: true, executed: false };
  const args = validated.value;
  const decision = decideToolCall(rules.policy, tool.name, args, tool.requiresApproval);
  if (decision.decision === 'deny') return { text: `Tool call "${tool.name}" was denied by policy (${decision.reason})`, isError: true, executed: false };
  if (decision.decision === 'review') {
    const answer = await askApproval(rules, tool, args, decision.reason, signal);
    if (!answer.ok) return { text: `Tool call "${tool.name}" was denied: ${answer.why}`, isError: true, executed: false };
  }
  signal.throwIfAborted();
  try {
    const ctx = { signal, runId: 'mcp', callId: generateId('call'), toolName: tool.name, context: rules.context, ...(progress === undefined ? {} : { progress }) };
    const output = await tool.invoke(args, ctx, undefined);
    return { text: output.content, isError: false, executed: true };
  } catch (error) {
    if (signal.aborted) throw error;
    return { text: `Tool "${tool.name}" failed: ${error instanceof Error ? error.message : String(error)}`, isError: true, executed: true };
  }
}
