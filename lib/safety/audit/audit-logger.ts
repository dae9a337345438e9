import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentObserver } from '../../events/observer.js';
import type { AgentEvent, AgentEventOf } from '../../events/types.js';
import { privateArgs, privateText } from './audit-privacy.js';
import { PRIVACY_LEVELS, type AuditPrivacy, type AuditRecord, type AuditRecordType } from './audit-types.js';

/** Options of {@link AuditLogger}. */
export interface AuditLoggerOptions {
  /** Directory of the audit files (created when missing). */
  dir: string;
  /** Default `keys_only`. */
  privacy?: AuditPrivacy;
  /** One file per UTC day, `audit-YYYY-MM-DD.jsonl` (default), or one `audit.jsonl` when false. */
  rotateDaily?: boolean;
}

type Base = { ts: string; run_id: string; parent_run_id?: string };

/**
 * An observer writing the audit log: one JSON record per line for `run_start`, `run_end`,
 * `tool_start`, `tool_end`, `tool_error`, `llm_end`, `policy_decision` and `error`. Arguments,
 * inputs and results follow the privacy level (`keys_only` by default: argument names and text
 * lengths only); credentials are never written (keys like `apiKey`, `token`, `password` and
 * secret-shaped strings are redacted at every level). Each record is one `O_APPEND` write of a
 * whole line, so several runs, and several processes, can share one file without mixing lines;
 * records of one logger are written in event order. `flush()` waits for the writes.
 *
 * @example
 * const audit = new AuditLogger({ dir: '.agentlib/audit', privacy: 'hashed' });
 * const agent = new Agent({ provider, observers: [audit] });
 * await agent.run('…');
 * await audit.flush();
 */
export class AuditLogger implements AgentObserver {
  readonly name = 'AuditLogger';
  readonly dir: string;
  readonly privacy: AuditPrivacy;
  readonly rotateDaily: boolean;
  #queue: Promise<void> = Promise.resolve();
  #made = false;
  #failure: unknown;

  constructor(options: AuditLoggerOptions) {
    if (typeof options?.dir !== 'string' || options.dir === '') throw new TypeError('AuditLogger needs a dir');
    const privacy = options.privacy ?? 'keys_only';
    if (!PRIVACY_LEVELS.includes(privacy)) throw new TypeError(`AuditLogger privacy must be one of ${PRIVACY_LEVELS.join(', ')}; got ${JSON.stringify(privacy)}`);
    this.dir = options.dir;
    this.privacy = privacy;
    this.rotateDaily = options.rotateDaily ?? true;
  }

  /** The file a record of time `ts` (epoch ms) goes to. */
  fileFor(ts: number): string {
    return join(this.dir, this.rotateDaily ? `audit-${new Date(ts).toISOString().slice(0, 10)}.jsonl` : 'audit.jsonl');
  }

  /** Waits until every record so far is written; rejects with the first write error, if any. */
  async flush(): Promise<void> {
    await this.#queue;
    if (this.#failure !== undefined) {
      const failure = this.#failure;
      this.#failure = undefined;
      throw failure instanceof Error ? failure : new Error('an audit write failed', { cause: failure });
    }
  }

  onEvent(event: AgentEvent): Promise<void> | void {
    const record = this.#record(event);
    if (record === undefined) return undefined;
    const line = `${JSON.stringify(record)}\n`;
    const file = this.fileFor(event.timestamp);
    this.#queue = this.#queue.then(async () => {
      try {
        if (!this.#made) {
          await mkdir(this.dir, { recursive: true });
          this.#made = true;
        }
        await appendFile(file, line, { flag: 'a' });
      } catch (error) {
        this.#failure ??= error;
      }
    });
    return this.#queue;
  }

  #base(event: AgentEvent, type: AuditRecordType): Base & { type: AuditRecordType } {
    return { ts: new Date(event.timestamp).toISOString(), type, run_id: event.runId, ...(event.parentRunId === undefined ? {} : { parent_run_id: event.parentRunId }) };
  }

  #args(args: Record<string, unknown>): Record<string, unknown> {
    const value = privateArgs(args, this.privacy);
    return value === undefined ? {} : { args: value };
  }

  #text(key: string, text: string): Record<string, unknown> {
    const value = privateText(text, this.privacy);
    return { [`${key}_chars`]: text.length, ...(value === undefined ? {} : { [key]: value }) };
  }

  #record(event: AgentEvent): AuditRecord | undefined {
    switch (event.type) {
      case 'run-start':
        return { ...this.#base(event, 'run_start'), agent: event.agentName, provider: event.provider, model: event.model, ...this.#text('input', event.input) };
      case 'run-end':
        return { ...this.#base(event, 'run_end'), agent: event.agentName, status: event.status, iterations: event.iterations, duration_ms: event.durationMs, usage: usageOf(event), ...this.#text('content', event.content) };
      case 'tool-start':
        return { ...this.#base(event, 'tool_start'), call_id: event.callId, tool: event.toolName, ...this.#args(event.args) };
      case 'tool-end':
        return { ...this.#base(event, 'tool_end'), call_id: event.callId, tool: event.toolName, duration_ms: event.durationMs, cached: event.cached, ...this.#text('result', event.result) };
      case 'tool-error':
        return { ...this.#base(event, 'tool_error'), call_id: event.callId, tool: event.toolName, kind: event.kind, duration_ms: event.durationMs, error: errorOf(event.error) };
      case 'llm-end':
        return {
          ...this.#base(event, 'llm_end'),
          iteration: event.iteration,
          provider: event.provider,
          model: event.model,
          duration_ms: event.durationMs,
          finish_reason: event.finishReason,
          prompt_tokens: event.usage.promptTokens,
          completion_tokens: event.usage.completionTokens,
          cost_usd: event.usage.costUsd,
          tool_calls: event.toolCalls.map((c) => c.toolName),
          ...(event.cached === true ? { cached: true } : {}),
        };
      case 'policy-decision':
        return { ...this.#base(event, 'policy_decision'), call_id: event.callId, tool: event.toolName, decision: event.decision, reason: event.reason, ...this.#args(event.args) };
      case 'error':
        return { ...this.#base(event, 'error'), stage: event.stage, error: errorOf(event.error) };
      default:
        return undefined;
    }
  }
}

function usageOf(event: AgentEventOf<'run-end'>): Record<string, number> {
  const { promptTokens, completionTokens, totalTokens, totalCostUsd, llmCalls } = event.usage;
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: totalTokens, cost_usd: totalCostUsd, llm_calls: llmCalls };
}

function errorOf(error: { name: string; message: string }): { name: string; message: string } {
  // Error messages may quote a credential (a provider echoing the request): scrubbed at every level.
  return { name: error.name, message: privateText(error.message, 'full') ?? '' };
}
