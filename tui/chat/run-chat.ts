import type { Agent } from '../../lib/agent/agent.js';
import type { ApprovalHandler } from '../../lib/agent/types.js';
import type { TurnTraces } from './turn-trace.js';
import type { ChatSessions } from './chat-sessions.js';

/** Options of `runChat`. */
export interface RunChatOptions {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  /** False with NO_COLOR / --no-color: no styles at all. */
  color: boolean;
  /** Shown in the footer. */
  agentLabel: string;
  model: string;
  provider: string;
  /** `ask` (default: the UI asks), `all`, `none` or a policy file. */
  approvalMode?: string;
  /** Answers approvals without asking (for `all`, `none`, policy files). */
  approve?: ApprovalHandler;
  /** Tool context (`--var`). */
  context?: Record<string, unknown>;
  cwd?: string;
  /** Builds the agent with another model (for /model). */
  switchModel?: (model: string) => Promise<Agent>;
  /** Stored sessions (/sessions, /session, /reset). */
  sessions?: ChatSessions;
  /** Lines shown once at the top. */
  notices?: readonly string[];
  /** Aborting it (SIGINT from outside, the host quitting) closes the chat with exit code 130. */
  signal?: AbortSignal;
  /** Saves each turn's trace as it runs. */
  traces?: TurnTraces;
}

/**
 * Renders the chat TUI for `agent` on the given streams and resolves with the exit code when the
 * user quits (0), or 130 when `signal` aborts. Ink and React load here, lazily.
 */
export async function runChat(agent: Agent, options: RunChatOptions): Promise<number> {
  const [{ render }, { createElement }, { ChatApp }, { FrameCounter }] = await Promise.all([import('ink'), import('react'), import('./ChatApp.js'), import('./frame-counter.js')]);
  // Counts the frames Ink draws: the approval prompt takes keys only once a frame has shown it.
  const frames = new FrameCounter();
  let exitCode = 0;
  let quit: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    quit = resolve;
  });
  const onExit = (code: number): void => {
    exitCode = code;
    quit();
  };
  const element = createElement(ChatApp, {
    agent,
    color: options.color,
    agentLabel: options.agentLabel,
    provider: options.provider,
    approvalMode: options.approvalMode ?? 'ask',
    approve: options.approve,
    ...(options.context === undefined ? {} : { context: options.context }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    switchModel: options.switchModel,
    ...(options.sessions === undefined ? {} : { sessions: options.sessions }),
    ...(options.notices === undefined ? {} : { notices: options.notices }),
    ...(options.traces === undefined ? {} : { traces: options.traces }),
    onExit,
    frames,
  });
  const instance = render(element, { stdin: options.stdin, stdout: options.stdout, stderr: options.stderr, exitOnCtrlC: false, maxFps: 30, onRender: frames.tick });
  const onAbort = (): void => onExit(130);
  if (options.signal?.aborted === true) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // Ink exits by itself only on a render error: that rejects here and becomes the command's error.
  const exited = instance.waitUntilExit().then(() => undefined);
  try {
    await Promise.race([done, exited]);
    // Let the last frame (e.g. a final notice) render before unmounting.
    await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    instance.unmount();
    await instance.waitUntilExit().catch(() => undefined);
  }
  return exitCode;
}
