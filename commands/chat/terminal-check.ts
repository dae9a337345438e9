import type { CliIO } from '../../cli/output.js';

/**
 * Why the chat cannot run here, or undefined when it can: it needs a terminal on stdin and
 * stdout, and does not run in CI (Ink prints only the last frame there).
 */
export function whyNotInteractive(io: CliIO): string | undefined {
  if (io.stdin?.isTTY !== true) return 'stdin is not a terminal';
  if (io.stdout.isTTY !== true) return 'stdout is not a terminal';
  const ci = io.env.CI;
  if (ci !== undefined && ci !== '' && ci !== '0' && ci !== 'false') return 'CI is set';
  return undefined;
}

/** The message for a non-interactive chat: what to use instead. */
export function notInteractiveMessage(reason: string, agent: string): string {
  return (
    `agentlib chat needs an interactive terminal (${reason}).\n` +
    `For pipes, scripts and CI use:  agentlib run ${agent} "your prompt"  (or pipe the prompt into agentlib run ${agent}).\n`
  );
}
