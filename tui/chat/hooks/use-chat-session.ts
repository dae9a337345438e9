import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { Agent } from '../../../lib/agent/agent.js';
import { failedRunResult } from '../../../lib/agent/execute-run.js';
import type { AgentResult } from '../../../lib/agent/result.js';
import type { ApprovalDecision, ApprovalHandler } from '../../../lib/agent/types.js';
import { userMessage, type Message } from '../../../lib/core/message.js';
import { chatReducer, type ChatAction } from '../chat-reducer.js';
import { initialChatState, type ChatState } from '../chat-state.js';
import { EventBatcher, type BatchClock } from '../event-batcher.js';
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
}

/** What the chat view gets from the session: state, and the few things a user can do. */
export interface ChatSession {
  state: ChatState;
  agent: Agent;
  running: boolean;
  /** The result of the last finished run. */
  lastResult: () => AgentResult | undefined;
  dispatch: (action: ChatAction) => void;
  submit: (prompt: string) => void;
  cancel: () => void;
  answer: (callId: string, decision: ApprovalDecision) => void;
  /** Clears the conversation (the agent's history, usage and session approvals). */
  reset: () => void;
  /** Uses another agent from the next turn on, continuing the conversation. */
  replaceAgent: (agent: Agent) => void;
}

/**
 * Drives the agent: one `agent.stream()` per turn, its events batched (~30 fps) into the pure
 * chat reducer. Holds no agent logic of its own.
 */
export function useChatSession(options: ChatSessionOptions): ChatSession {
  const [state, dispatch] = useReducer(chatReducer, options.agent.model, initialChatState);
  const agentRef = useRef(options.agent);
  const carried = useRef<readonly Message[]>([]);
  const controller = useRef<AbortController | undefined>(undefined);
  const lastResult = useRef<AgentResult | undefined>(undefined);
  const batcher = useRef<EventBatcher>(null);
  batcher.current ??= new EventBatcher((events) => dispatch({ type: 'events', events }), {
    ...(options.batchIntervalMs === undefined ? {} : { intervalMs: options.batchIntervalMs }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const flush = useCallback(() => batcher.current?.flush(), []);
  const queue = useApprovalQueue(dispatch, flush, options.clock?.now);
  const approve = options.approve ?? queue.handler;
  const context = options.context;

  useEffect(
    () => () => {
      controller.current?.abort(new Error('chat closed'));
      batcher.current?.dispose();
    },
    [],
  );

  const submit = useCallback(
    (prompt: string) => {
      if (controller.current !== undefined) return;
      const abort = new AbortController();
      controller.current = abort;
      const now = options.clock?.now ?? Date.now;
      dispatch({ type: 'turn-start', prompt, now: now() });
      const agent = agentRef.current;
      const input = carried.current.length > 0 ? [...carried.current, userMessage(prompt)] : prompt;
      carried.current = [];
      void (async () => {
        let status = 'error';
        let error: string | undefined;
        try {
          const stream = agent.stream(input, { signal: abort.signal, approve, ...(context === undefined ? {} : { context }) });
          for await (const event of stream) batcher.current?.push(event);
          const result = await stream.result;
          lastResult.current = result;
          status = result.status;
        } catch (caught) {
          // A failed or cancelled run still has a result with its trace (for /save).
          lastResult.current = failedRunResult(caught) ?? lastResult.current;
          status = abort.signal.aborted ? 'cancelled' : 'error';
          if (!abort.signal.aborted) error = caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught);
        } finally {
          batcher.current?.flush();
          queue.denyAll();
          controller.current = undefined;
          dispatch({ type: 'turn-finish', status, now: now(), ...(error === undefined ? {} : { error }) });
        }
      })();
    },
    [approve, context, options.clock, queue],
  );

  const cancel = useCallback(() => {
    controller.current?.abort(new Error('cancelled by the user'));
    queue.denyAll();
  }, [queue]);

  const reset = useCallback(() => {
    agentRef.current.reset();
    carried.current = [];
    lastResult.current = undefined;
    dispatch({ type: 'reset' });
  }, []);

  const replaceAgent = useCallback((agent: Agent) => {
    carried.current = [...carried.current, ...agentRef.current.history];
    agentRef.current = agent;
    dispatch({ type: 'set-model', model: agent.model });
  }, []);

  return {
    state,
    agent: agentRef.current,
    running: state.live !== undefined,
    lastResult: useCallback(() => lastResult.current, []),
    dispatch,
    submit,
    cancel,
    answer: queue.answer,
    reset,
    replaceAgent,
  };
}
