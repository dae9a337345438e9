import type { CliIO } from '../../cli/output.js';

/** A progress indicator on stderr; a no-op where it would only add noise. */
export interface Progress {
  update(text: string): void;
  /** Hides it (text is about to be written to the same terminal, or a prompt is shown). */
  pause(): void;
  resume(): void;
  stop(): void;
}

const NONE: Progress = { update: () => undefined, pause: () => undefined, resume: () => undefined, stop: () => undefined };

/** An ora spinner on stderr when stderr is a terminal and `CI` is unset; otherwise nothing. */
export async function createProgress(io: CliIO, enabled: boolean): Promise<Progress> {
  if (!enabled || io.stderr.isTTY !== true || (io.env.CI ?? '') !== '') return NONE;
  const { default: ora } = await import('ora');
  const spinner = ora({ stream: io.stderr as NodeJS.WritableStream, discardStdin: false, text: 'starting' });
  let text = 'starting';
  let paused = true;
  return {
    update(next) {
      text = next;
      if (paused) {
        paused = false;
        spinner.start(text);
      } else {
        spinner.text = text;
      }
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
      spinner.stop();
      paused = true;
    },
  };
}
