/** How much of arguments, inputs and results an audit record keeps. */
export type AuditPrivacy = 'full' | 'keys_only' | 'hashed' | 'none';

/** The privacy levels: `full` (secrets still redacted), `keys_only` (default), `hashed` (16 hex of SHA-256), `none`. */
export const PRIVACY_LEVELS: readonly AuditPrivacy[] = ['full', 'keys_only', 'hashed', 'none'];

/** The record types of the audit log. */
export type AuditRecordType = 'run_start' | 'run_end' | 'tool_start' | 'tool_end' | 'tool_error' | 'llm_end' | 'policy_decision' | 'error';

/** One line of an audit file. */
export interface AuditRecord {
  /** ISO time of the event. */
  ts: string;
  type: AuditRecordType;
  run_id: string;
  parent_run_id?: string;
  [field: string]: unknown;
}
