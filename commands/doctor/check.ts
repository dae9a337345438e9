import { formatDuration } from '../../lib/core/format-units.js';

/** How a check came out: `fail` only for a required check (an optional one that fails is a `warn`). */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** The outcome of one `agentlib doctor` check. Never carries a secret (keys are reported as set or not). */
export interface CheckResult {
  /** Stable id (`node`, `config`, `provider:openai`, `backend:REDIS_URL`). */
  id: string;
  /** Short label for the text report. */
  title: string;
  status: CheckStatus;
  /** What was found, in one line (the config check may list several `file:line:col` lines). */
  detail: string;
  /** How to fix it, when something is wrong. */
  hint?: string;
  /** Whether a failure makes `agentlib doctor` exit non-zero. */
  required: boolean;
  /** Machine-readable details for `--json` (HTTP status, latency, URL without credentials…). */
  data?: Record<string, unknown>;
}

/** What the checks may look at. */
export interface DoctorEnvironment {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Time limit of each network probe (they run in parallel, so also of all of them). */
  timeoutMs: number;
  /** Skip network probes. */
  offline: boolean;
  /** Aborted on Ctrl+C. */
  signal: AbortSignal;
}

/** Builds a result; an optional check that failed becomes a warning, and an empty hint is dropped. */
export function checkResult(fields: Omit<CheckResult, 'hint' | 'data'> & { hint?: string | undefined; data?: Record<string, unknown> | undefined }): CheckResult {
  const { hint, data, ...rest } = fields;
  const result: CheckResult = { ...rest, status: rest.status === 'fail' && !rest.required ? 'warn' : rest.status };
  if (hint !== undefined && hint !== '') result.hint = hint;
  if (data !== undefined) result.data = data;
  return result;
}

/** The value of an environment variable, or undefined when it is unset or blank. */
export function envValue(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** A URL for display: no user, password, query or fragment (they may hold credentials). */
export function displayUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

/** `12 ms`, `1.2 s`, `2m 05s` (lib/core/format-units.ts, `spaced` style). */
export function formatMs(ms: number): string {
  return formatDuration(ms, 'spaced');
}
