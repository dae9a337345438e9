import { needs, outcome, type CheckDefinition } from './check-definition.js';

/** Limits on the run: wall time and cost (from the run's own usage). */
export const LIMIT_CHECKS: readonly CheckDefinition[] = [
  {
    type: 'latency',
    description: 'the run took at most `threshold` (or `value`) milliseconds',
    kind: 'deterministic',
    validate: needs.positiveLimit,
    run: (assertion, { latencyMs }) => {
      const limit = Number(assertion.threshold ?? assertion.value);
      const pass = latencyMs <= limit;
      return outcome(pass, `${Math.round(latencyMs)} ms, limit ${limit} ms`, { expected: `≤ ${limit} ms`, actual: `${Math.round(latencyMs)} ms` });
    },
  },
  {
    type: 'cost',
    description: 'the run cost at most `threshold` (or `value`) US dollars',
    kind: 'deterministic',
    validate: needs.positiveLimit,
    run: (assertion, { result }) => {
      const limit = Number(assertion.threshold ?? assertion.value);
      const cost = result.usage.totalCostUsd;
      const pass = cost <= limit;
      return outcome(pass, `$${cost.toFixed(6)}, limit $${limit}`, { expected: `≤ $${limit}`, actual: `$${cost.toFixed(6)}` });
    },
  },
];
