import { Box, useInput, useStdout } from 'ink';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Agent } from '../../lib/agent/agent.js';
import type { ApprovalHandler } from '../../lib/agent/types.js';
import { getModelInfo } from '../../lib/providers/models/registry.js';
import type { ToolCard as ToolCardData } from './chat-state.js';
import { TOOL_OUTPUT_LINES } from './ToolCard.js';
import { ApprovalPrompt } from './ApprovalPrompt.js';
import type { BatchClock } from './event-batcher.js';
import { Footer } from './Footer.js';
import { useChatSession } from './hooks/use-chat-session.js';
import { InputLine } from './InputLine.js';
import { LiveTurn } from './LiveTurn.js';
import { parseSlashCommand, runSlashCommand } from './slash-commands.js';
import { TracePane } from './TracePane.js';
import { Transcript } from './Transcript.js';

/** Two Ctrl+C presses within this many ms quit. */
export const DOUBLE_CTRL_C_MS = 2000;

/** Props of the chat app. */
export interface ChatAppProps {
  agent: Agent;
  color: boolean;
  /** Shown in the footer (the agent's name or file). */
  agentLabel: string;
  provider: string;
  /** `ask` (the UI asks), `all`, `none` or a policy file. */
  approvalMode?: string;
  /** Answers approvals without the UI (`--approve all|none|policy.yaml`). */
  approve?: ApprovalHandler | undefined;
  /** Tool context (`--var` values). */
  context?: Record<string, unknown>;
  /** Where /save writes relative paths. */
  cwd?: string;
  /** Builds the agent with another model (for /model). */
  switchModel?: ((model: string) => Promise<Agent>) | undefined;
  /** Lines printed once above the conversation (e.g. "sessions are not available yet"). */
  notices?: readonly string[];
  /** Called with the exit code when the user quits. */
  onExit: (code: number) => void;
  batchIntervalMs?: number;
  clock?: BatchClock;
}

/** `agentlib chat`: a view over the agent's event stream (state in useChatSession, rendering here). */
export function ChatApp(props: ChatAppProps): ReactNode {
  const { color, onExit } = props;
  const session = useChatSession({
    agent: props.agent,
    ...(props.approve === undefined ? {} : { approve: props.approve }),
    ...(props.context === undefined ? {} : { context: props.context }),
    ...(props.batchIntervalMs === undefined ? {} : { batchIntervalMs: props.batchIntervalMs }),
    ...(props.clock === undefined ? {} : { clock: props.clock }),
  });
  const { state, running, dispatch } = session;
  const { stdout } = useStdout();
  const width = Math.max(40, stdout.columns || 100);
  const rows = Math.max(12, stdout.rows || 24);
  const [hint, setHint] = useState<string | undefined>(undefined);
  const lastCtrlC = useRef(0);
  const now = props.clock?.now ?? Date.now;

  useEffect(() => {
    for (const text of props.notices ?? []) dispatch({ type: 'notice', text, tone: 'warn' });
  }, []);

  const contextWindow = useMemo(() => getModelInfo(state.model)?.contextWindow, [state.model]);
  const print = useCallback((text: string, tone: 'info' | 'warn' | 'error' = 'info') => dispatch({ type: 'notice', text, tone }), [dispatch]);

  const submit = useCallback(
    (line: string) => {
      setHint(undefined);
      const command = parseSlashCommand(line);
      if (command === undefined) {
        session.submit(line.startsWith('//') ? line.slice(1) : line);
        return;
      }
      void runSlashCommand(command, {
        agent: session.agent,
        usage: state.usage,
        contextWindow,
        lastResult: session.lastResult(),
        running,
        cwd: props.cwd ?? process.cwd(),
        print,
        toggleTrace: () => dispatch({ type: 'toggle-trace' }),
        reset: session.reset,
        exit: onExit,
        switchModel: props.switchModel,
        replaceAgent: session.replaceAgent,
      });
    },
    [session, state.usage, contextWindow, running, props.cwd, props.switchModel, print, dispatch, onExit],
  );

  const approvalPending = state.approvals.length > 0;
  useInput((input, key) => {
    if (key.ctrl && input === 'c') {
      const t = now();
      if (t - lastCtrlC.current < DOUBLE_CTRL_C_MS) {
        session.cancel();
        onExit(0);
        return;
      }
      lastCtrlC.current = t;
      if (running) session.cancel();
      setHint('press Ctrl+C again to quit');
      return;
    }
    if (key.escape && running && !approvalPending) {
      session.cancel();
      return;
    }
    if (key.ctrl && input === 'o') {
      const card = lastCutTool(state.finished.map((item) => (item.kind === 'tool' ? item.card : undefined)));
      if (card === undefined) print('No cut tool output to show.');
      else print(`${card.toolName} output:\n${card.output ?? ''}`);
      return;
    }
    if (hint !== undefined && !(key.ctrl && input === 'c')) setHint(undefined);
  });

  const head = state.approvals[0];
  const traceRows = state.traceVisible ? Math.min(12, Math.max(3, Math.floor(rows / 3))) : 0;
  const liveBudget = rows - 6 - (head === undefined ? 0 : 6) - (state.traceVisible ? traceRows + 3 : 0);
  return (
    <Box flexDirection="column">
      <Transcript items={state.finished} color={color} width={width} />
      {state.live !== undefined ? <LiveTurn turn={state.live} color={color} width={width} maxLines={liveBudget} /> : null}
      {head !== undefined && props.approve === undefined ? (
        <ApprovalPrompt key={head.id} approval={head} queued={state.approvals.length - 1} color={color} width={width} onAnswer={session.answer} now={now} />
      ) : null}
      {state.traceVisible ? <TracePane rows={state.traceRows} color={color} width={width} maxRows={traceRows} /> : null}
      <Box marginTop={1}>
        <InputLine active={!running && !approvalPending} color={color} onSubmit={submit} />
      </Box>
      <Footer
        agentLabel={props.agentLabel}
        provider={session.agent.providerName === props.agent.providerName ? props.provider : session.agent.providerName}
        model={state.model}
        usage={state.usage}
        contextWindow={contextWindow}
        iteration={state.live?.iteration}
        approvalMode={props.approvalMode ?? 'ask'}
        running={running}
        color={color}
        hint={hint}
      />
    </Box>
  );
}

function lastCutTool(cards: readonly (ToolCardData | undefined)[]): ToolCardData | undefined {
  for (let i = cards.length - 1; i >= 0; i--) {
    const card = cards[i];
    if (card?.output !== undefined && card.output.trimEnd().split('\n').length > TOOL_OUTPUT_LINES) return card;
  }
  return undefined;
}
