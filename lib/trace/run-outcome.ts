/**
 * How a run ended, as the terminal views colour it: `ok` when it finished normally (`completed`,
 * or ended by a terminal tool, a stop condition or a routing-only selection: exit status 0 in
 * `agentlib run`), `stopped` when it was cut short (`cancelled`, `max-iterations`,
 * `budget-exceeded`), `error` when it failed.
 */
export type RunOutcome = 'ok' | 'stopped' | 'error';

const STOPPED: ReadonlySet<string> = new Set(['cancelled', 'max-iterations', 'budget-exceeded']);

/** The outcome of a run status (a RunStatus, or any status text a trace file holds: `error`, `failed`, … count as errors). */
export function runOutcome(status: string): RunOutcome {
  if (STOPPED.has(status)) return 'stopped';
  return /error|fail/i.test(status) ? 'error' : 'ok';
}
