import { ConfigurationError } from '../core/errors/configuration-error.js';
import { closestMatch } from '../core/suggest.js';
import { AGENT_EVENT_TYPES } from './event-types.js';
import type { AgentObserver } from './observer.js';
import { redactSecrets } from './redact.js';
import type { AgentEvent, AgentEventType } from './types.js';

/** Log levels, lowest first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const LEVEL_RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

const DEBUG_EVENTS = new Set<AgentEventType>([
  'text-delta', 'reasoning-delta', 'tool-chunk', 'usage', 'iteration-start', 'iteration-end',
]);
const WARN_EVENTS = new Set<AgentEventType>([
  'tool-error', 'llm-retry', 'provider-fallback', 'budget-exceeded', 'cost-warning', 'cancelled',
  'guardrail-triggered', 'coherence-blocked', 'output-screened', 'stall-detected', 'loop-detected',
]);

/** The level an event is logged at: errors, warnings (failures the run survives), debug (deltas), info. */
export function eventLogLevel(event: AgentEvent): LogLevel {
  if (event.type === 'error' || event.type === 'graph-error') return 'error';
  if (WARN_EVENTS.has(event.type)) return 'warn';
  if (event.type === 'policy-decision' && event.decision === 'deny') return 'warn';
  if (event.type === 'structured-validate' && !event.valid) return 'warn';
  if (event.type === 'run-end' && event.status === 'error') return 'error';
  return DEBUG_EVENTS.has(event.type) ? 'debug' : 'info';
}

/** Options of a LoggingObserver. */
export interface LoggingObserverOptions {
  /** Receives each line, without a trailing newline. Default: `process.stderr` (one line each). */
  write?: (line: string) => void;
  /** Lowest level written. Default `info` (deltas, chunks and usage ticks are `debug`). */
  level?: LogLevel;
  /** Only these event types (default all). */
  include?: readonly AgentEventType[];
  /** Never these event types. */
  exclude?: readonly AgentEventType[];
  name?: string;
}

/**
 * Writes one JSON line per event: `{"time","level","event","runId","parentRunId"?,"data"}`, where
 * `data` is the payload with secrets redacted (see `redactSecrets`).
 */
export class LoggingObserver implements AgentObserver {
  readonly name: string;
  readonly #write: (line: string) => void;
  readonly #minRank: number;
  readonly #include: ReadonlySet<AgentEventType> | undefined;
  readonly #exclude: ReadonlySet<AgentEventType>;

  constructor(options: LoggingObserverOptions = {}) {
    this.name = options.name ?? 'LoggingObserver';
    this.#write = options.write ?? ((line) => void process.stderr.write(`${line}\n`));
    const level = options.level ?? 'info';
    if (!(level in LEVEL_RANK)) throw new ConfigurationError(`unknown log level "${String(level)}"; use debug, info, warn or error`, { key: 'level' });
    this.#minRank = LEVEL_RANK[level];
    this.#include = options.include ? new Set(checkTypes(options.include, 'include')) : undefined;
    this.#exclude = new Set(checkTypes(options.exclude ?? [], 'exclude'));
  }

  onEvent(event: AgentEvent): void {
    if (this.#exclude.has(event.type) || (this.#include !== undefined && !this.#include.has(event.type))) return;
    const level = eventLogLevel(event);
    if (LEVEL_RANK[level] < this.#minRank) return;
    this.#write(formatLogLine(event, level));
  }
}

/** One redacted JSON log line for an event (never throws). */
export function formatLogLine(event: AgentEvent, level: LogLevel = eventLogLevel(event)): string {
  const { type, runId, timestamp, parentRunId, ...data } = event;
  const head = { time: isoTime(timestamp), level, event: type, runId, ...(parentRunId === undefined ? {} : { parentRunId }) };
  try {
    return JSON.stringify({ ...head, data: redactSecrets(data) });
  } catch (error) {
    return JSON.stringify({ ...head, data: { unserializable: error instanceof Error ? error.message : String(error) } });
  }
}

function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? new Date().toISOString() : date.toISOString();
}

function checkTypes(types: readonly AgentEventType[], key: string): readonly AgentEventType[] {
  const known: ReadonlySet<string> = new Set(AGENT_EVENT_TYPES);
  for (const type of types) {
    if (known.has(type)) continue;
    const suggestion = closestMatch(type, AGENT_EVENT_TYPES);
    throw new ConfigurationError(
      `unknown event type "${type}" in LoggingObserver ${key}` + (suggestion ? `; did you mean "${suggestion}"?` : ''),
      { key, ...(suggestion ? { suggestion } : {}) },
    );
  }
  return types;
}
