import type { CliIO } from '../../cli/output.js';

/** A progress indicator on stderr; a no-op where it would only add noise. */
export interface Progress {
  update(text: string): void;
  /** Shows `text · N s`, the seconds counting up from now, until the next update or stop. */
  wait(text: string): void;
  /** Hides it (text is about to be written to the same terminal, or a prompt is shown). */
  pause(): void;
  resume(): void;
  stop(): void;
}

const NONE: Progress = { update: () => undefined, wait: () => undefined, pause: () => undefined, resume: () => undefined, stop: () => undefined };

/** `waiting for openai · 12 s`: the label and the whole seconds waited. */
export function waitingText(label: string, elapsedMs: number): string {
  return `${label} · ${Math.max(0, Math.floor(elapsedMs / 1000))} s`;
}

/**
 * An ora spinner on stderr when stderr is a terminal and `CI` is unset; otherwise nothing (a run
 * without a terminal prints no progress at all). `stop()` clears the spinner's line, also when the
 * run ends on Ctrl+C.
 */
export async function createProgress(io: CliIO, enabled: boolean, options: { signal?: AbortSignal; now?: () => number } = {}): Promise<Progress> {
  if (!enabled || io.stderr.isTTY !== true || (io.env.CI ?? '') !== '') return NONE;
  const { default: ora } = await import('ora');
  const spinner = ora({ stream: io.stderr as NodeJS.WritableStream, discardStdin: false, text: 'starting' });
  let text = 'starting';
  let paused = true;
  const now = options.now ?? Date.now;
  let ticker: NodeJS.Timeout | undefined;
  const stopTicker = (): void => {
    if (ticker !== undefined) clearInterval(ticker);
    ticker = undefined;
  };
  const show = (next: string): void => {
    text = next;
    if (paused) {
      paused = false;
      spinner.start(text);
    } else {
      spinner.text = text;
    }
  };
  const progress: Progress = {
    update(next) {
      stopTicker();
      show(next);
    },
    wait(label) {
      stopTicker();
      const started = now();
      show(waitingText(label, 0));
      // The seconds move on while paused too; a paused spinner shows them when it resumes.
      ticker = setInterval(() => {
        text = waitingText(label, now() - started);
        if (!paused) spinner.text = text;
      }, 1000);
      ticker.unref();
    },
    pause() {
      if (!paused) spinner.stop();
      paused = true;
    },
    resume() {
      if (paused) spinner.start(text);
      paused = false;
    },
    stop() {
      stopTicker();
      spinner.stop();
      paused = true;
    },
  };
  // Ctrl+C: the line is cleared at once (the interrupt notice follows), and nothing shows again.
  options.signal?.addEventListener('abort', () => {
    progress.stop();
    progress.update = progress.wait = progress.resume = () => undefined;
  }, { once: true });
  return progress;
}
