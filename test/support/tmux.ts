import { spawnSync } from 'node:child_process';

/** Whether tmux is installed (end-to-end terminal tests skip without it). */
export const hasTmux = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;

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
