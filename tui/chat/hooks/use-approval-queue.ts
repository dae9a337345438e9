import { useCallback, useRef } from 'react';
import type { ApprovalDecision, ApprovalHandler, ApprovalRequest } from '../../../lib/agent/types.js';
import type { ChatAction } from '../chat-reducer.js';

/** The approval queue: an ApprovalHandler whose promises the UI resolves, one request at a time, in order. */
export interface ApprovalQueue {
  /** Pass to `agent.stream(…, { approve })`. */
  handler: ApprovalHandler;
  /**
   * Answers the request for `callId` (the head of the queue, as shown); approving it for the session
   * answers the queued requests for the same tool too.
   */
  answer: (callId: string, decision: ApprovalDecision) => void;
  /** Denies everything still waiting (the turn was cancelled). */
  denyAll: () => void;
}

/**
 * Turns approval requests into queue entries in the chat state and returns a promise per request
 * that `answer` resolves. A request whose signal aborts (run cancelled, approval timed out)
 * leaves the queue by itself. `beforeEnqueue` runs first (flushes batched events so the tool
 * card is on screen).
 */
export function useApprovalQueue(dispatch: (action: ChatAction) => void, beforeEnqueue: () => void, now: () => number = Date.now): ApprovalQueue {
  const resolvers = useRef(new Map<string, { toolName: string; settle: (decision: ApprovalDecision) => void }>());
  const handler = useCallback<ApprovalHandler>(
    (request: ApprovalRequest) =>
      new Promise<ApprovalDecision>((resolve) => {
        beforeEnqueue();
        const settle = (decision: ApprovalDecision): void => {
          if (!resolvers.current.has(request.callId)) return;
          resolvers.current.delete(request.callId);
          request.signal.removeEventListener('abort', onAbort);
          dispatch({ type: 'approval-resolve', callId: request.callId });
          resolve(decision);
        };
        const onAbort = (): void => settle(false);
        resolvers.current.set(request.callId, { toolName: request.toolName, settle });
        request.signal.addEventListener('abort', onAbort, { once: true });
        dispatch({ type: 'approval-enqueue', approval: { callId: request.callId, toolName: request.toolName, args: request.args, reason: request.reason, requestedAt: now() } });
        if (request.signal.aborted) onAbort();
      }),
    [dispatch, beforeEnqueue, now],
  );
  const answer = useCallback((callId: string, decision: ApprovalDecision) => {
    const entry = resolvers.current.get(callId);
    if (entry === undefined) return;
    entry.settle(decision);
    // "Allow for this session" also answers the calls of that tool already waiting in the queue
    // (the agent skips asking only for calls it has not asked about yet).
    if (typeof decision === 'object' && decision.approved && decision.scope === 'session') {
      for (const other of [...resolvers.current.values()]) if (other.toolName === entry.toolName) other.settle(decision);
    }
  }, []);
  const denyAll = useCallback(() => {
    for (const { settle } of [...resolvers.current.values()]) settle(false);
  }, []);
  return { handler, answer, denyAll };
}
