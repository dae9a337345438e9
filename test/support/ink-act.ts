// Ink components under React's act(): a render, a key press or an unmount returns only once React
// has rendered and run its effects, so a test asserts on the frame at once, with no sleep to "let
// Ink settle" (a loaded machine may run React's scheduled work late, never early).
import { act, type ReactElement } from 'react';
import { cleanup as inkCleanup, render as inkRender } from 'ink-testing-library';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** What ink-testing-library's render returns. */
export type Rendered = ReturnType<typeof inkRender>;

/** Renders `tree` inside act(): the first frame and its effects are done on return. */
export function render(tree: ReactElement): Rendered {
  let rendered: Rendered | undefined;
  act(() => {
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
    await act(async () => {
      stdin.write(key);
      await new Promise((resolve) => setImmediate(resolve));
    });
  }
}

/** Unmounts every rendered tree inside act(). */
export function cleanup(): void {
  act(() => inkCleanup());
}
