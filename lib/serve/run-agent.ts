import type { Agent } from '../agent/agent.js';
import type { AgentResult } from '../agent/result.js';
import type { ApprovalHandler, RunOptions } from '../agent/types.js';
import type { AgentEvent } from '../events/types.js';
import { approvalFromGlobs } from './approval-policy.js';
import type { KeyedLock } from './keyed-lock.js';
import type { RunRequest } from './run-request.js';
import type { SessionStore } from './session-store.js';

/** What a run needs from the server. */
export interface RunnerDeps {
  /** A fresh Agent (own history, usage and approvals) for every request. */
  createAgent: () => Agent;
  sessions: SessionStore;
  locks: KeyedLock;
  /** Passed to tools as `ctx.context` (server-side only, never from the request). */
  toolContext?: unknown;
}

const DENY_ALL = approvalFromGlobs([]);

/**
 * Runs one request on a fresh Agent: loads the session's history (under the session's lock, so
 * two requests of one session take turns), runs (streaming every event to `onEvent` when given),
 * and saves the conversation back unless the run failed or was cancelled. Requests without a
 * session share nothing.
 */
export function runAgent(deps: RunnerDeps, request: RunRequest, signal: AbortSignal, onEvent?: (event: AgentEvent) => void): Promise<AgentResult> {
  const execute = async (): Promise<AgentResult> => {
    const { sessionId } = request;
    const history = sessionId === undefined ? undefined : await deps.sessions.load(sessionId);
    const agent = deps.createAgent();
    const input = history === undefined || history.length === 0 ? request.messages : [...history, ...request.messages];
    const approve: ApprovalHandler = request.approve.length === 0 ? DENY_ALL : approvalFromGlobs(request.approve);
    const options: RunOptions = { signal, approve };
    if (request.responseFormat !== undefined) options.responseFormat = request.responseFormat;
    if (deps.toolContext !== undefined) options.context = deps.toolContext;
    let result: AgentResult;
    if (onEvent === undefined) {
      result = await agent.run(input, options);
    } else {
      const stream = agent.stream(input, options);
      for await (const event of stream) onEvent(event);
      result = await stream.result;
    }
    if (sessionId !== undefined && !signal.aborted && result.status !== 'cancelled') await deps.sessions.save(sessionId, agent.history);
    return result;
  };
  return request.sessionId === undefined ? execute() : deps.locks.run(request.sessionId, execute);
}
