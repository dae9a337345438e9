import { Chalk, type ChalkInstance } from 'chalk';
import type { AgentResult } from '../../lib/agent/result.js';
import { formatDuration } from '../../lib/core/format-units.js';
import type { AgentEvent } from '../../lib/events/types.js';
import type { CliIO } from '../../cli/output.js';
import type { Progress } from './spinner.js';

const MAX_ARGS = 120;

function briefArgs(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  return text.length > MAX_ARGS ? `${text.slice(0, MAX_ARGS - 1)}…` : text;
}

/** `12 ms`, `1.2 s`, `2m 05s` (lib/core/format-units.ts, `spaced` style). */
function formatMs(ms: number): string {
  return formatDuration(ms, 'spaced');
}

/**
 * `--output-format text`: the answer on stdout (streamed live when stdout is a terminal, the
 * final answer only when it is piped, so scripts get just the answer), tool activity and a
 * summary on stderr (unless quiet), progress in a spinner.
 */
export class TextRenderer {
  readonly #io: CliIO;
  readonly #progress: Progress;
  readonly #live: boolean;
  readonly #quiet: boolean;
  readonly #err: ChalkInstance;
  #streamed = '';

  constructor(io: CliIO, progress: Progress, options: { quiet: boolean; color: boolean }) {
    this.#io = io;
    this.#progress = progress;
    this.#live = io.stdout.isTTY === true;
    this.#quiet = options.quiet;
    this.#err = new Chalk({ level: options.color ? 1 : 0 });
  }

  /** Renders one event of the run. */
  handle(event: AgentEvent): void {
    switch (event.type) {
      case 'llm-start':
        this.#progress.wait(`waiting for ${event.provider} (${event.model})`);
        return;
      case 'text-delta':
        if (!this.#live) return;
        this.#progress.pause();
        this.#io.stdout.write(event.text);
        this.#streamed += event.text;
        return;
      case 'tool-start':
        this.#endLine();
        this.#progress.update(`running ${event.toolName}`);
        return;
      case 'tool-end':
        this.#log(`${this.#err.green('✓')} ${event.toolName} ${this.#err.dim(`${briefArgs(event.args)} ${formatMs(event.durationMs)}`)}`);
        return;
      case 'tool-error':
        this.#log(`${this.#err.red('x')} ${event.toolName} ${this.#err.dim(briefArgs(event.args))}: ${event.error.message}`);
        return;
      case 'approval-response':
        if (!event.approved) this.#log(`${this.#err.yellow('?')} ${event.toolName} not approved (${event.outcome})`);
        return;
      case 'llm-retry':
        this.#log(this.#err.yellow(`retrying ${event.provider} in ${formatMs(event.delayMs)} (attempt ${event.attempt}): ${event.error.message}`));
        // Still waiting for the same reply: the spinner (and its seconds) carries on.
        this.#progress.resume();
        return;
      case 'provider-fallback':
        this.#log(this.#err.yellow(`falling back from ${event.from} to ${event.to}: ${event.error.message}`));
        return;
      default:
        return;
    }
  }

  /** Writes the answer (unless it was streamed) and the summary. */
  finish(result: AgentResult, tracePath: string | undefined): void {
    this.#progress.stop();
    if (this.#live) {
      // Streamed text included any thinking-out-loud before tool calls; end with the answer's line.
      if (!this.#streamed.trimEnd().endsWith(result.content.trimEnd())) this.#io.stdout.write(`${this.#streamed ? '\n' : ''}${result.content}`);
      this.#io.stdout.write('\n');
    } else if (result.content !== '') {
      this.#io.stdout.write(result.content.endsWith('\n') ? result.content : `${result.content}\n`);
    }
    const usage = result.usage;
    const parts = [
      result.status === 'completed' ? undefined : `status ${result.status}`,
      `${result.iterations} iteration${result.iterations === 1 ? '' : 's'}`,
      `${usage.totalTokens} tokens`,
      `$${usage.totalCostUsd < 0.01 ? usage.totalCostUsd.toFixed(6) : usage.totalCostUsd.toFixed(4)}`,
      formatMs(result.durationMs),
      tracePath === undefined ? undefined : `trace ${tracePath}`,
    ].filter((part) => part !== undefined);
    this.#log(this.#err.dim(`— ${parts.join(' · ')}`));
  }

  #endLine(): void {
    if (this.#live && this.#streamed !== '' && !this.#streamed.endsWith('\n')) {
      this.#io.stdout.write('\n');
      this.#streamed += '\n';
    }
  }

  #log(line: string): void {
    if (this.#quiet) return;
    this.#progress.pause();
    this.#io.stderr.write(`${line}\n`);
  }
}
