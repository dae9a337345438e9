// Helpers of the real-terminal tests (whether tmux is there: `requires('tmux')` in ./requirements.ts).

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
