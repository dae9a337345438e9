import { plain, record } from './read-collections.js';
import { bool, num, str, type FieldTable } from './readers.js';

/** `retry:` — retries of failed provider calls (exponential backoff with full jitter). */
export const RETRY_FIELDS: FieldTable = {
  max_retries: { read: num({ integer: true, min: 0 }), type: 'integer ≥ 0', default: '2', description: 'Retries after the first attempt.' },
  base_delay_ms: { read: num({ integer: true, min: 0 }), type: 'integer ≥ 0', default: '500', description: 'Base backoff delay.' },
  max_delay_ms: { read: num({ integer: true, min: 0 }), type: 'integer ≥ 0', default: '8000', description: 'Largest backoff delay.' },
  max_retry_after_ms: { read: num({ integer: true, min: 0 }), type: 'integer ≥ 0', default: '60000', description: 'Cap on a provider Retry-After.' },
  deadline_ms: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', description: 'Stop retrying once this much time has passed.' },
};

/** `budget:` — per-run limits. */
export const BUDGET_FIELDS: FieldTable = {
  max_cost_usd: { read: num({ min: 0 }), type: 'number ≥ 0', description: 'Stop the run (partial result) past this cost.' },
  max_total_tokens: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', description: 'Stop the run (partial result) past this many tokens.' },
  cost_warning_threshold: { read: num({ min: 0 }), type: 'number ≥ 0', description: 'Emit one `cost-warning` event past this cost.' },
};

/** `tool_config:` — how tools run. */
export const TOOL_CONFIG_FIELDS: FieldTable = {
  parallel: { read: bool(), type: 'boolean', default: 'true', description: 'Run several requested tools at once.' },
  approval_timeout: {
    read: num({ min: 0 }),
    type: 'number ≥ 0 (seconds)',
    default: '60',
    description: 'How long to wait for an approval; a timeout denies. 0 waits indefinitely.',
  },
  recursive: { read: bool(), type: 'boolean', default: 'false', description: 'Load tool directories recursively.' },
};

/** `trace:` — trace shaping. */
export const TRACE_FIELDS: FieldTable = {
  metadata: { read: record(plain), type: 'mapping', description: 'Extra metadata stored in every trace.' },
  tool_result_chars: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', default: '2000', description: 'Characters of tool output kept in trace steps.' },
  parent_run_id: { read: str({ nonEmpty: true }), type: 'string', description: "Links this agent's runs to a parent run." },
};

/** `structured:` — structured-output repair. */
export const STRUCTURED_FIELDS: FieldTable = {
  max_retries: { read: num({ integer: true, min: 0 }), type: 'integer ≥ 0', default: '2', description: 'Extra LLM calls allowed to fix invalid structured output.' },
};
