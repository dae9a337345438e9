// Ink components under React's act(): a render, a key press or an unmount returns only once React
// has rendered and run its effects, so a test asserts on the frame at once, with no sleep to "let
// Ink settle" (a loaded machine may run React's scheduled work late, never early).
// React's act environment is switched on only while one of these runs: updates from elsewhere (a
// streaming agent run) render as in the app, with no "not wrapped in act" warnings.
import { act, type ReactElement } from 'react';
import { cleanup as inkCleanup, render as inkRender } from 'ink-testing-library';

const scope = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean | undefined };

/** Switches React's act environment on; the function returned switches it back. */
function actEnvironment(): () => void {
  const before = scope.IS_REACT_ACT_ENVIRONMENT;
  scope.IS_REACT_ACT_ENVIRONMENT = true;
  return () => void (scope.IS_REACT_ACT_ENVIRONMENT = before);
}

/** Runs a synchronous act() in the act environment. */
function actNow(fn: () => void): void {
  const restore = actEnvironment();
  try {
    void act(fn);
  } finally {
    restore();
  }
}

/** What ink-testing-library's render returns. */
export type Rendered = ReturnType<typeof inkRender>;

/** Renders `tree` inside act(): the first frame and its effects are done on return. */
export function render(tree: ReactElement): Rendered {
  let rendered: Rendered | undefined;
  actNow(() => {
    rendered = inkRender(tree);
  });
  if (rendered === undefined) throw new Error('ink-testing-library rendered nothing');
  return rendered;
}

/**
 * Types `keys` one by one, each inside act(). Ink holds a lone Esc for one setImmediate turn (it
 * may start an escape sequence), so each act() also waits that turn.
 */
export async function press(stdin: Rendered['stdin'], ...keys: string[]): Promise<void> {
  for (const key of keys) {
    const restore = actEnvironment();
    try {
      await act(async () => {
        stdin.write(key);
        await new Promise((resolve) => setImmediate(resolve));
      });
    } finally {
      restore();
    }
  }
}

/** Unmounts every rendered tree inside act(). */
export function cleanup(): void {
  actNow(() => inkCleanup());
}
