import { linkSignals } from '../core/linked-signal.js';
import type { ToolCall } from '../core/tool-call.js';
import type { RunState } from './run-state.js';
import type { ApprovalDecision, ApprovalHandler } from './types.js';

/** The resolved answer to an approval request. */
export interface ApprovalOutcome {
  approved: boolean;
  outcome: 'approved' | 'denied' | 'timeout';
  feedback?: string;
  /** Set when nobody (no person) made the decision. */
  system?: 'no-approver' | 'cancelled' | 'approver-failed';
}

function normalise(decision: ApprovalDecision): { approved: boolean; session: boolean; feedback?: string } {
  if (typeof decision === 'boolean') return { approved: decision, session: false };
  const out: { approved: boolean; session: boolean; feedback?: string } = {
    approved: decision.approved === true,
    session: decision.scope === 'session',
  };
  if (decision.feedback !== undefined && decision.feedback !== '') out.feedback = decision.feedback;
  return out;
}

function handlerFor(state: RunState): ApprovalHandler | undefined {
  if (state.approve) return state.approve;
  const confirm = state.config.tools.confirmAction;
  if (!confirm) return undefined;
  return (request) => confirm(request.toolName, request.args, request.reason);
}

/**
 * Asks for approval of a review-gated call: `approval-request`, then the run's ApprovalHandler
 * (or `confirmAction`) under `approvalTimeout` (a timeout denies), then `approval-response`.
 * Tools approved "for this session" are approved without asking. Without any approver the call
 * is denied.
 */
export async function requestApproval(state: RunState, call: ToolCall, reason: string): Promise<ApprovalOutcome> {
  const timeoutMs = state.config.tools.approvalTimeoutMs;
  const base = { callId: call.id, toolName: call.toolName };
  if (state.sessionApprovals.has(call.toolName)) {
    await state.emit('approval-response', { ...base, approved: true, outcome: 'approved', feedback: 'approved for this session' });
    return { approved: true, outcome: 'approved' };
  }
  await state.emit('approval-request', { ...base, args: call.parameters, reason, timeoutMs });
  const handler = handlerFor(state);
  let outcome: ApprovalOutcome;
  if (!handler) {
    outcome = { approved: false, outcome: 'denied', feedback: 'no approver is configured for review-gated tools', system: 'no-approver' };
  } else {
    outcome = await askWithTimeout(state, handler, call, reason, timeoutMs);
  }
  const event = { ...base, approved: outcome.approved, outcome: outcome.outcome };
  await state.emit('approval-response', outcome.feedback === undefined ? event : { ...event, feedback: outcome.feedback });
  return outcome;
}

/** The longest delay setTimeout accepts (about 24.8 days); longer ones would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

async function askWithTimeout(
  state: RunState,
  handler: ApprovalHandler,
  call: ToolCall,
  reason: string,
  timeoutMs: number,
): Promise<ApprovalOutcome> {
  const linked = linkSignals([state.signal]);
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) timer = setTimeout(() => resolve('timeout'), Math.min(timeoutMs, MAX_TIMER_MS));
  });
  const cancelled = new Promise<'cancelled'>((resolve) => {
    onAbort = () => resolve('cancelled');
    if (state.signal.aborted) onAbort();
    else state.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const request = { runId: state.runId, callId: call.id, toolName: call.toolName, args: call.parameters, reason, signal: linked.signal };
    const answer = await Promise.race([Promise.resolve(handler(request)), timeout, cancelled]);
    if (answer === 'timeout') return { approved: false, outcome: 'timeout' };
    if (answer === 'cancelled') return { approved: false, outcome: 'denied', feedback: 'the run was cancelled', system: 'cancelled' };
    const decision = normalise(answer);
    if (decision.approved && decision.session) state.sessionApprovals.add(call.toolName);
    const outcome: ApprovalOutcome = { approved: decision.approved, outcome: decision.approved ? 'approved' : 'denied' };
    if (decision.feedback !== undefined) outcome.feedback = decision.feedback;
    return outcome;
  } catch (error) {
    return { approved: false, outcome: 'denied', feedback: `the approver failed: ${(error as Error).message}`, system: 'approver-failed' };
  } finally {
    clearTimeout(timer);
    if (onAbort) state.signal.removeEventListener('abort', onAbort);
    linked.abort();
    linked.dispose();
  }
}

/** The text the model receives for a denied review. */
export function denialText(toolName: string, outcome: ApprovalOutcome, timeoutMs: number): string {
  if (outcome.outcome === 'timeout') {
    return `Tool call "${toolName}" was not approved within ${Math.round(timeoutMs / 1000)} s and was denied. Do not retry it; continue without it or ask the user.`;
  }
  if (outcome.system) return `Tool call "${toolName}" needs approval and was denied: ${outcome.feedback ?? outcome.system}.`;
  const why = outcome.feedback ? ` Feedback from the user: ${outcome.feedback}` : '';
  return `The user denied the tool call "${toolName}".${why} Do not retry the same call; adjust your approach.`;
}
