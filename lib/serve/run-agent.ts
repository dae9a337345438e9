import { Agent, runStreamed } from '../agent/agent.js';
import { RunAborter } from '../agent/run-aborter.js';
import type { AgentResult } from '../agent/result.js';
import type { ApprovalHandler, RunOptions } from '../agent/types.js';
import type { Message } from '../core/message.js';
import type { AgentEvent } from '../events/types.js';
import { approvalFromGlobs } from './approval-policy.js';
import type { KeyedLock } from './keyed-lock.js';
import type { RunRequest } from './run-request.js';
import { HttpError } from './http-error.js';
import { sessionBytes, type SessionStore } from './session-store.js';
import type { SessionBinding, SessionStore as PersistentSessionStore } from '../sessions/types.js';
import { savingTrace, type RunTraces } from './save-run-trace.js';

/** Sessions kept in a persistent store (lib/sessions): SQLite, Redis, JSON files. */
export interface StoredSessions {
  store: PersistentSessionStore;
  /** A fresh Agent continuing the stored session it is given (it loads and appends the session itself). */
  createAgent: (session: SessionBinding) => Agent;
}

/** What a run needs from the server. */
export interface RunnerDeps {
  /** A fresh Agent (own history, usage and approvals) for every request. */
  createAgent: () => Agent;
  sessions: SessionStore;
  /** When set, `session_id` conversations live here instead of `sessions` (several processes may share it). */
  stored?: StoredSessions;
  locks: KeyedLock;
  /** Largest session (its messages as JSON, UTF-8 bytes) a request may run on (413 past it). */
  maxSessionBytes: number;
  /** Passed to tools as `ctx.context` (server-side only, never from the request). */
  toolContext?: unknown;
  /** When set, every run's trace is saved here when the run ends (a failed run's too). */
  traces?: RunTraces;
}

const DENY_ALL = approvalFromGlobs([]);

/**
 * Runs one request on a fresh Agent: loads the session's history (under the session's lock, so
 * two requests of one session take turns), runs (streaming every event to `onEvent` when given),
 * and saves the conversation back unless the run failed or was cancelled. A session whose history
 * and new messages together pass `maxSessionBytes` is refused (413) before it runs, so a session
 * never grows past that bound by more than one run's messages. Requests without a session share
 * nothing. With `deps.traces`, the run's trace is saved before the promise settles.
 */
export function runAgent(deps: RunnerDeps, request: RunRequest, signal: AbortSignal, onEvent?: (event: AgentEvent) => void): Promise<AgentResult> {
  return savingTrace(deps.traces, runOnSession(deps, request, signal, onEvent));
}

function runOnSession(deps: RunnerDeps, request: RunRequest, signal: AbortSignal, onEvent?: (event: AgentEvent) => void): Promise<AgentResult> {
  const { sessionId } = request;
  if (sessionId === undefined) {
    // Nothing to load, lock or save: the run is the whole of it (a throwing factory still rejects).
    try {
      return run(deps.createAgent(), request.messages, runOptions(deps, request, signal), onEvent);
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on as thrown
      return Promise.reject(error);
    }
  }
  const { stored } = deps;
  if (stored !== undefined) {
    return deps.locks.run(sessionId, async () => {
      const record = await stored.store.load(sessionId);
      const bytes = sessionBytes(record === undefined ? request.messages : [...record.messages, ...request.messages]);
      if (bytes > deps.maxSessionBytes) throw sessionTooLarge(sessionId, bytes, deps.maxSessionBytes);
      // The agent's session extension loads the conversation and appends this run's messages in one
      // atomic write, so another process serving the same session loses nothing.
      return run(stored.createAgent({ store: stored.store, id: sessionId }), request.messages, runOptions(deps, request, signal), onEvent);
    });
  }
  return deps.locks.run(sessionId, async () => {
    const history = await deps.sessions.load(sessionId);
    const agent = deps.createAgent();
    const input = history === undefined || history.length === 0 ? request.messages : [...history, ...request.messages];
    const bytes = sessionBytes(input);
    if (bytes > deps.maxSessionBytes) throw sessionTooLarge(sessionId, bytes, deps.maxSessionBytes);
    const result = await run(agent, input, runOptions(deps, request, signal), onEvent);
    if (!signal.aborted && result.status !== 'cancelled') await deps.sessions.save(sessionId, agent.history);
    return result;
  });
}

function sessionTooLarge(sessionId: string, bytes: number, limit: number): HttpError {
  return new HttpError(413, 'request_too_large_error', `Session "${sessionId}" would hold ${bytes} bytes with this request, over the limit of ${limit} bytes per session; start a new session_id`);
}

function runOptions(deps: RunnerDeps, request: RunRequest, signal: AbortSignal): RunOptions {
  const approve: ApprovalHandler = request.approve.length === 0 ? DENY_ALL : approvalFromGlobs(request.approve);
  const options: RunOptions = { signal, approve };
  if (request.responseFormat !== undefined) options.responseFormat = request.responseFormat;
  if (deps.toolContext !== undefined) options.context = deps.toolContext;
  return options;
}

/** One run of `agent` on `input`: `agent.run`, or `agent.stream` with every event to `onEvent`. */
function run(agent: Agent, input: readonly Message[], options: RunOptions, onEvent: ((event: AgentEvent) => void) | undefined): Promise<AgentResult> {
  return onEvent === undefined ? agent.run(input, options) : streamed(agent, input, options, onEvent);
}

/**
 * `agent.stream` with every event to `onEvent`. On an Agent whose `stream` is the library's own,
 * the events are handed over as they are emitted (`runStreamed`: no async iteration, no promise
 * per event), with the semantics of iterating the stream: when `onEvent` throws, no event follows,
 * the run is aborted ("stream consumer stopped") and the promise rejects with what it threw.
 */
function streamed(agent: Agent, input: readonly Message[], options: RunOptions, onEvent: (event: AgentEvent) => void): Promise<AgentResult> {
  if (agent.stream !== Agent.prototype.stream) return iterated(agent, input, options, onEvent);
  return new Promise<AgentResult>((resolve, reject) => {
    const aborter = new RunAborter();
    let failed = false;
    const deliver = (event: AgentEvent): void => {
      if (failed) return;
      try {
        onEvent(event);
      } catch (error) {
        failed = true;
        aborter.abort(new Error('stream consumer stopped'));
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on as thrown
        reject(error);
      }
    };
    runStreamed(agent, input, options, deliver, aborter).then(resolve, reject);
  });
}

/** `agent.stream` iterated: for an Agent subclass with a `stream` of its own. */
async function iterated(agent: Agent, input: readonly Message[], options: RunOptions, onEvent: (event: AgentEvent) => void): Promise<AgentResult> {
  const stream = agent.stream(input, options);
  for await (const event of stream) onEvent(event);
  return stream.result;
}
