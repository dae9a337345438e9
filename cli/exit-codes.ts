/**
 * Process exit codes of the `agentlib` CLI (DESIGN.md §4). Stable: scripts and CI depend on them.
 */
export const ExitCode = {
  /** Success. */
  OK: 0,
  /** An eval failed or scored below its threshold. */
  EVAL_FAILED: 1,
  /** Bad usage or configuration: unknown command or flag, invalid YAML, missing API key. */
  USAGE: 2,
  /** A runtime or provider failure. */
  RUNTIME: 3,
  /** Nothing matched (for example no test selected by a filter). */
  NOTHING_MATCHED: 4,
  /** A graph run stopped at an interrupt and waits for a person's answer (`agentlib graph resume`). */
  WAITING_FOR_INPUT: 5,
  /** Interrupted (Ctrl+C), 128 + SIGINT. */
  INTERRUPTED: 130,
} as const;

/** One of the CLI's exit codes. */
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
