import type { AgentTrace } from '../../lib/trace/agent-trace.js';

/** Streams and colour for the viewer (the launcher has already applied NO_COLOR / --no-color). */
export interface TraceViewerOptions {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  /** false: no colours or styles (chalk level 0 while the viewer runs). */
  color: boolean;
}

const ENTER_ALT_SCREEN = '\u001b[?1049h';
const LEAVE_ALT_SCREEN = '\u001b[?1049l';

/**
 * Shows `trace` in the full-screen viewer until the user quits (`q` or Ctrl+C); resolves with exit
 * code 0. `stdin` must be a TTY (Ink needs raw mode); the caller falls back to static output otherwise. On a TTY it draws on the alternate screen and restores the previous screen on exit. Ink,
 * React and the components are imported here, lazily, so importing this module costs nothing.
 */
export async function runTraceViewer(trace: AgentTrace, options: TraceViewerOptions): Promise<number> {
  const [{ render }, { createElement }, { default: chalk }, { TraceViewer }] = await Promise.all([
    import('ink'),
    import('react'),
    import('chalk'),
    import('./TraceViewer.js'),
  ]);
  const { stdin, stdout } = options;
  const previousLevel = chalk.level;
  if (!options.color) chalk.level = 0;
  else if (chalk.level === 0) chalk.level = 1; // the caller checked the terminal; chalk looked at process.stdout
  const altScreen = stdout.isTTY === true;
  if (altScreen) stdout.write(ENTER_ALT_SCREEN);
  try {
    const app = render(createElement(TraceViewer, { trace }), { stdin, stdout, exitOnCtrlC: true, patchConsole: false });
    await app.waitUntilExit();
    return 0;
  } finally {
    if (altScreen) stdout.write(LEAVE_ALT_SCREEN);
    chalk.level = previousLevel;
  }
}
