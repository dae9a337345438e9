// Helpers of the real-terminal tests (whether tmux is there: `requires('tmux')` in ./requirements.ts).
import { execFileSync, spawnSync } from 'node:child_process';

/** Quotes text for a POSIX shell command line. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Polls `check` every 50 ms until it holds; throws naming `what` after `ms`. */
export async function waitFor(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A detached tmux session for one test file: start a command in it, read its screen, send keys. */
export interface TmuxSession {
  /** Starts `command` (a shell line) in a new detached session of `columns` × `rows`. */
  start(command: string, columns?: number, rows?: number): void;
  /** The visible screen as text. */
  pane(): string;
  /** Sends keys (`'C-c'`, `'y'`, `'Enter'`). */
  sendKeys(...keys: string[]): void;
  /** Ends the session (no error when it is gone). */
  kill(): void;
}

/** A tmux session named `name` plus the process id (unique across parallel test files). */
export function tmuxSession(name: string): TmuxSession {
  const session = `${name}-${process.pid}`;
  return {
    start: (command, columns = 120, rows = 30) => void execFileSync('tmux', ['new-session', '-d', '-s', session, '-x', String(columns), '-y', String(rows), command]),
    pane: () => execFileSync('tmux', ['capture-pane', '-p', '-t', session], { encoding: 'utf8' }),
    sendKeys: (...keys) => void execFileSync('tmux', ['send-keys', '-t', session, ...keys]),
    kill: () => void spawnSync('tmux', ['kill-session', '-t', session], { stdio: 'ignore' }),
  };
}
