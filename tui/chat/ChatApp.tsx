import { Box, useInput } from 'ink';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Agent } from '../../lib/agent/agent.js';
import type { ApprovalHandler } from '../../lib/agent/types.js';
import { getModelInfo } from '../../lib/providers/models/registry.js';
import { ApprovalPrompt, approvalPromptRows } from './ApprovalPrompt.js';
import type { BatchClock } from './event-batcher.js';
import { Footer, footerLines, type FooterProps } from './Footer.js';
import type { FrameCounter } from './frame-counter.js';
import { useChatSession } from './hooks/use-chat-session.js';
import { useTerminalSize } from '../hooks/use-terminal-size.js';
import { InputLine } from './InputLine.js';
import { LiveTurn } from './LiveTurn.js';
import { busyNotice, parseSlashCommand, runSlashCommand, runsWhileBusy } from './slash-commands.js';
import { TracePane } from './TracePane.js';
import type { TurnTraces } from './turn-trace.js';
import type { ChatSessions } from './chat-sessions.js';
import { liveBudget } from './live-layout.js';
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
  /** Stored sessions (`/sessions`, `/session <id>`, `/reset` starting a new session). */
  sessions?: ChatSessions | undefined;
  /** Lines printed once above the conversation. */
  notices?: readonly string[];
  /** Called with the exit code when the user quits. */
  onExit: (code: number) => void;
  batchIntervalMs?: number;
  clock?: BatchClock;
  /** Frames Ink has drawn (runChat wires Ink's `onRender`): the approval prompt ignores keys typed before it was drawn. */
  frames?: FrameCounter | undefined;
  /** Saves each turn's trace (`agentlib chat`: to its trace store when the turn ends). */
  traces?: TurnTraces | undefined;
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
    ...(props.traces === undefined ? {} : { traces: props.traces }),
  });
  const { state, running, dispatch } = session;
  const terminal = useTerminalSize({ columns: 100, rows: 24 });
  const width = Math.max(10, terminal.columns);
  const rows = Math.max(1, terminal.rows);
  const [hint, setHint] = useState<string | undefined>(undefined);
  // Why the last line was refused (busy); gone when the chat is no longer busy or the user types.
  const [refusal, setRefusal] = useState<string | undefined>(undefined);
  const lastCtrlC = useRef(0);
  const now = props.clock?.now ?? Date.now;

  useEffect(() => {
    for (const text of props.notices ?? []) dispatch({ type: 'notice', text, tone: 'warn' });
  }, []);

  const contextWindow = useMemo(() => getModelInfo(state.model)?.contextWindow, [state.model]);
  const print = useCallback((text: string, tone: 'info' | 'warn' | 'error' = 'info') => dispatch({ type: 'notice', text, tone }), [dispatch]);
  const printed = useCallback((throughId: number) => dispatch({ type: 'printed', throughId }), [dispatch]);

  /** Enter on the input line. False refuses the line (it stays in the input): prompts and some commands wait while busy. */
  const submit = useCallback(
    (line: string): boolean => {
      setHint(undefined);
      setRefusal(undefined);
      const command = parseSlashCommand(line);
      const busy = session.busy();
      if (command === undefined) {
        if (busy !== undefined) {
          setRefusal(busyNotice(busy));
          return false;
        }
        return session.submit(line.startsWith('//') ? line.slice(1) : line);
      }
      if (busy !== undefined && !runsWhileBusy(command)) {
        setRefusal(busyNotice(busy, command));
        return false;
      }
      void runSlashCommand(command, {
        agent: session.agent,
        usage: state.usage,
        contextWindow,
        lastResult: session.lastResult(),
        busy,
        cwd: props.cwd ?? process.cwd(),
        print,
        toggleTrace: () => dispatch({ type: 'toggle-trace' }),
        reset: session.reset,
        exit: onExit,
        switchModel: props.switchModel,
        switchAgent: session.switchAgent,
        sessions: props.sessions,
      });
      return true;
    },
    [session, state.usage, contextWindow, props.cwd, props.switchModel, props.sessions, print, dispatch, onExit],
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
      const card = state.lastCutTool;
      if (card === undefined) print('No cut tool output to show.');
      else print(`${card.toolName} output:\n${card.output ?? ''}`);
      return;
    }
    if (hint !== undefined) setHint(undefined);
    // Enter may have just refused a line: typing clears the notice, Enter does not.
    if (refusal !== undefined && !key.return && !/[\r\n]/.test(input)) setRefusal(undefined);
  });
  const { switching } = session;
  useEffect(() => {
    if (!running && !switching) setRefusal(undefined);
  }, [running, switching]);

  const head = state.approvals[0];
  const asking = head !== undefined && props.approve === undefined;
  const footer: FooterProps = {
    agentLabel: props.agentLabel,
    provider: session.agent.providerName === props.agent.providerName ? props.provider : session.agent.providerName,
    model: state.model,
    usage: state.usage,
    contextWindow,
    iteration: state.live?.iteration,
    approvalMode: props.approvalMode ?? 'ask',
    running,
    color,
    hint: hint ?? refusal,
    width,
  };
  // The real heights of what sits below the streaming turn, at this width.
  const footerRows = footerLines(footer);
  const budget = liveBudget(rows, {
    footerRows: footerRows.status.length + footerRows.keys.length,
    approvalRows: asking ? approvalPromptRows(head, state.approvals.length - 1) : 0,
    traceVisible: state.traceVisible,
    traceCount: state.traceRows.length,
  });
  const placeholder = switching ? 'loading the model…' : running ? 'a turn is running: /help /trace /cost /tools work now' : undefined;
  return (
    <Box flexDirection="column">
      <Transcript items={state.finished} epoch={state.transcriptEpoch} color={color} width={width} onPrinted={printed} />
      {state.live !== undefined ? <LiveTurn turn={state.live} color={color} width={width} maxRows={budget.live} /> : null}
      {asking ? (
        <ApprovalPrompt key={head.id} approval={head} queued={state.approvals.length - 1} color={color} width={width} onAnswer={session.answer} now={now} frames={props.frames} />
      ) : null}
      {budget.trace > 0 ? <TracePane rows={state.traceRows} color={color} width={width} maxRows={budget.trace} /> : null}
      <Box marginTop={1}>
        <InputLine active={!approvalPending} color={color} onSubmit={submit} width={width} {...(placeholder === undefined ? {} : { placeholder })} />
      </Box>
      <Footer {...footer} />
    </Box>
  );
}
