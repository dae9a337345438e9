import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { Agent } from '../../../lib/agent/agent.js';
import { failedRunResult } from '../../../lib/agent/execute-run.js';
import type { AgentResult } from '../../../lib/agent/result.js';
import type { ApprovalDecision, ApprovalHandler } from '../../../lib/agent/types.js';
import { userMessage, type Message } from '../../../lib/core/message.js';
import { ChatBusyError, type ChatBusy } from '../chat-busy-error.js';
import { chatReducer, type ChatAction } from '../chat-reducer.js';
import { initialChatState, type ChatState } from '../chat-state.js';
import { EventBatcher, type BatchClock } from '../event-batcher.js';
import type { TurnTraces } from '../turn-trace.js';
import { useApprovalQueue } from './use-approval-queue.js';

/** Options of the chat session hook. */
export interface ChatSessionOptions {
  agent: Agent;
  /** Answers approvals without asking (`--approve all|none|policy`); default: the UI queue. */
  approve?: ApprovalHandler;
  /** Passed to tools as `ctx.context` (the `--var` values). */
  context?: Record<string, unknown>;
  batchIntervalMs?: number;
  clock?: BatchClock;
  /** Saves each turn's trace as it runs (default: none; `/save` still writes one on request). */
  traces?: TurnTraces;
}

/** What the chat view gets from the session: state, and the few things a user can do. */
export interface ChatSession {
  state: ChatState;
  agent: Agent;
  running: boolean;
  /** A `/model` loader is running (no turn can start until it has finished). */
  switching: boolean;
  /** Read now (not from the last render): why a turn cannot start, or undefined when it can. */
  busy: () => ChatBusy | undefined;
  /** The result of the last finished run. */
  lastResult: () => AgentResult | undefined;
  dispatch: (action: ChatAction) => void;
  /** Starts a turn; false (nothing happens) while busy. */
  submit: (prompt: string) => boolean;
  cancel: () => void;
  answer: (callId: string, decision: ApprovalDecision) => void;
  /** Clears the conversation (the agent's history, usage and session approvals). */
  reset: () => void;
  /** Uses another agent from the next turn on, continuing the conversation (its history and session approvals). */
  replaceAgent: (agent: Agent) => void;
  /**
   * Loads another agent with `load` and switches to it; no turn starts meanwhile. Rejects
   * (nothing changes) when `load` fails, or when busy.
   */
  switchAgent: (load: () => Promise<Agent>) => Promise<Agent>;
}

/**
 * Drives the agent: one `agent.stream()` per turn, its events batched (~30 fps) into the pure
 * chat reducer. Holds no agent logic of its own.
 *
 * A model switch carries the conversation over: the old agent's history is sent with the first
 * prompt on the new agent and dropped only once a run has put it into the new agent's history (a
 * failed first turn keeps it for the next one). Tools approved "for this session" stay approved
 * on the new agent (the session remembers them and answers for the new agent when it asks).
 */
export function useChatSession(options: ChatSessionOptions): ChatSession {
  const [state, dispatch] = useReducer(chatReducer, options.agent.model, initialChatState);
  const agentRef = useRef(options.agent);
  const carried = useRef<readonly Message[]>([]);
  const controller = useRef<AbortController | undefined>(undefined);
  const switchingRef = useRef(false);
  const [switching, setSwitching] = useState(false);
  const sessionApproved = useRef(new Set<string>());
  const lastResult = useRef<AgentResult | undefined>(undefined);
  const batcher = useRef<EventBatcher>(null);
  batcher.current ??= new EventBatcher((events) => dispatch({ type: 'events', events }), {
    ...(options.batchIntervalMs === undefined ? {} : { intervalMs: options.batchIntervalMs }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const flush = useCallback(() => batcher.current?.flush(), []);
  const queue = useApprovalQueue(dispatch, flush, options.clock?.now);
  const ask = options.approve ?? queue.handler;
  const approve = useCallback<ApprovalHandler>(
    async (request) => {
      // Approved for the session on an agent this chat used before (/model): still approved.
      if (sessionApproved.current.has(request.toolName)) return { approved: true, scope: 'session' };
      const decision = await ask(request);
      if (typeof decision === 'object' && decision.approved && decision.scope === 'session') sessionApproved.current.add(request.toolName);
      return decision;
    },
    [ask],
  );
  const context = options.context;
  const traces = options.traces;

  useEffect(
    () => () => {
      controller.current?.abort(new Error('chat closed'));
      batcher.current?.dispose();
    },
    [],
  );

  const busy = useCallback((): ChatBusy | undefined => (controller.current !== undefined ? 'running' : switchingRef.current ? 'switching' : undefined), []);

  const submit = useCallback(
    (prompt: string): boolean => {
      if (busy() !== undefined) return false;
      const abort = new AbortController();
      controller.current = abort;
      const now = options.clock?.now ?? Date.now;
      dispatch({ type: 'turn-start', prompt, now: now() });
      const agent = agentRef.current;
      const sent = carried.current;
      const input = sent.length > 0 ? [...sent, userMessage(prompt)] : prompt;
      const historyBefore = agent.history.length;
      const trace = traces?.();
      void (async () => {
        let status = 'error';
        let error: string | undefined;
        let turnResult: AgentResult | undefined;
        try {
          const stream = agent.stream(input, { signal: abort.signal, approve, ...(context === undefined ? {} : { context }) });
          for await (const event of stream) {
            trace?.handle(event);
            batcher.current?.push(event);
          }
          const result = await stream.result;
          turnResult = result;
          lastResult.current = result;
          status = result.status;
        } catch (caught) {
          // A failed or cancelled run still has a result with its trace (for /save).
          turnResult = failedRunResult(caught);
          lastResult.current = turnResult ?? lastResult.current;
          status = abort.signal.aborted ? 'cancelled' : 'error';
          if (!abort.signal.aborted) error = caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught);
        } finally {
          // The carried conversation is in the agent's history once a run added to it; a run
          // that failed added nothing, so it is sent again with the next prompt.
          if (sent.length > 0 && agent.history.length > historyBefore && carried.current === sent) carried.current = [];
          batcher.current?.flush();
          queue.denyAll();
          // Saved before the turn ends, so the trace is on disk when the prompt comes back.
          try {
            await trace?.finish(turnResult);
          } catch (caught) {
            dispatch({ type: 'notice', text: `The trace of this turn could not be saved: ${caught instanceof Error ? caught.message : String(caught)}`, tone: 'error' });
          }
          controller.current = undefined;
          dispatch({ type: 'turn-finish', status, now: now(), ...(error === undefined ? {} : { error }) });
        }
      })();
      return true;
    },
    [approve, busy, context, options.clock, queue, traces],
  );

  const cancel = useCallback(() => {
    controller.current?.abort(new Error('cancelled by the user'));
    queue.denyAll();
  }, [queue]);

  const reset = useCallback(() => {
    agentRef.current.reset();
    carried.current = [];
    sessionApproved.current.clear();
    lastResult.current = undefined;
    dispatch({ type: 'reset' });
  }, []);

  const replaceAgent = useCallback((agent: Agent) => {
    // An agent on a stored session loads its conversation itself: carrying one over would repeat it.
    carried.current = agent.session !== undefined ? [] : [...carried.current, ...agentRef.current.history];
    agentRef.current = agent;
    dispatch({ type: 'set-model', model: agent.model });
  }, []);

  const switchAgent = useCallback(
    async (load: () => Promise<Agent>): Promise<Agent> => {
      const why = busy();
      if (why !== undefined) throw new ChatBusyError(why);
      switchingRef.current = true;
      setSwitching(true);
      try {
        const agent = await load();
        replaceAgent(agent);
        return agent;
      } finally {
        switchingRef.current = false;
        setSwitching(false);
      }
    },
    [busy, replaceAgent],
  );

  return {
    state,
    agent: agentRef.current,
    running: state.live !== undefined,
    switching,
    busy,
    lastResult: useCallback(() => lastResult.current, []),
    dispatch,
    submit,
    cancel,
    answer: queue.answer,
    reset,
    replaceAgent,
    switchAgent,
  };
}
