import type { CliIO } from '../../cli/output.js';
import { CancellationError } from '../../lib/core/errors/cancellation-error.js';

/** One option of a select question. */
export interface PromptChoice {
  value: string;
  /** Shown in the list (default: the value). */
  name?: string;
  /** Shown under the list for the highlighted option. */
  description?: string;
}

/**
 * The questions the `init` wizard asks. The CLI uses {@link inquirerPrompter}; tests pass a
 * scripted one, so the wizard's flow is tested without a terminal.
 */
export interface Prompter {
  select(question: { message: string; choices: readonly PromptChoice[]; default?: string }): Promise<string>;
  /** `validate` returns true, or the message shown for a rejected answer. */
  input(question: { message: string; default?: string; validate?: (value: string) => true | string }): Promise<string>;
  confirm(question: { message: string; default?: boolean }): Promise<boolean>;
}

/** Turns Ctrl+C / Esc inside a prompt (inquirer's ExitPromptError, AbortPromptError) into a CancellationError (exit 130). */
function cancelled(error: unknown): unknown {
  if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError')) {
    return new CancellationError({ reason: 'prompt', message: 'Cancelled; nothing was written.', cause: error });
  }
  return error;
}

/** A Prompter on the terminal: @inquirer/prompts reading `io.stdin` and drawing on `io.stderr` (stdout stays for data). */
export function inquirerPrompter(io: CliIO, signal?: AbortSignal): Prompter {
  const context = {
    input: io.stdin as NodeJS.ReadableStream,
    output: io.stderr as NodeJS.WritableStream,
    clearPromptOnDone: false,
    ...(signal === undefined ? {} : { signal }),
  };
  const prompts = import('@inquirer/prompts');
  return {
    async select(question) {
      const { select } = await prompts;
      const choices = question.choices.map((choice) => ({ value: choice.value, name: choice.name ?? choice.value, ...(choice.description === undefined ? {} : { description: choice.description }) }));
      return select({ message: question.message, choices, pageSize: Math.max(7, choices.length), ...(question.default === undefined ? {} : { default: question.default }) }, context).catch((error: unknown) => {
        throw cancelled(error);
      });
    },
    async input(question) {
      const { input } = await prompts;
      return input(
        { message: question.message, ...(question.default === undefined ? {} : { default: question.default }), ...(question.validate === undefined ? {} : { validate: question.validate }) },
        context,
      ).catch((error: unknown) => {
        throw cancelled(error);
      });
    },
    async confirm(question) {
      const { confirm } = await prompts;
      return confirm({ message: question.message, ...(question.default === undefined ? {} : { default: question.default }) }, context).catch((error: unknown) => {
        throw cancelled(error);
      });
    },
  };
}
