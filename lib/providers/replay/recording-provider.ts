import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CassetteError } from '../../core/errors/cassette-error.js';
import type { EmbedRequest, EmbedResponse, Provider, ProviderCapabilities, ProviderNotice, ProviderRequest, ProviderResponse, StreamPart } from '../spec.js';
import { canonicalEmbedRequest, canonicalRequest } from './canonical-request.js';
import { CASSETTE_VERSION, type CassetteHeader, type Interaction, type RecordedError, type RecordedNotice } from './cassette.js';
import { recordError } from './recorded-error.js';
import { SecretScrubber } from './secret-scrubber.js';

/** Options of a RecordingProvider. */
export interface RecordingOptions {
  /** The cassette file to write (created or truncated; parent directories are created). */
  path: string;
  /** Environment whose secret values are scrubbed from what is written. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Redact values under secret-looking keys (`password`, `api_key`, `token`, …) anywhere in the
   * conversation, as traces do. Default true. A tool whose parameters have such names then
   * replays with `[REDACTED]` arguments; turn this off (on both sides) to replay it faithfully.
   */
  redactKeys?: boolean;
  /**
   * More environment variables whose values are scrubbed (`[REDACTED:NAME]`) whatever their names:
   * `agentlib run --record` passes those interpolated into the agent's config (`${NAME}` in a
   * system prompt). The names go into the header, so replay scrubs the same variables.
   */
  scrubEnv?: readonly string[];
  /** Clock for the header's `createdAt`. */
  now?: () => Date;
}

/**
 * Wraps a provider and writes every call it serves — request, response or streamed parts, error,
 * retry/fallback notices — to a JSONL cassette, one line per call as soon as it ends (a crashed
 * run keeps what it recorded). Secrets never reach the file: secret-looking keys are redacted and
 * the values of secret environment variables are scrubbed from every string. Requests are stored
 * at the provider-protocol level, so one cassette format serves every provider.
 */
export class RecordingProvider implements Provider {
  readonly name: string;
  readonly defaultModel: string;
  readonly capabilities: ProviderCapabilities;
  /** The cassette file being written. */
  readonly path: string;
  readonly #inner: Provider;
  readonly #scrubber: SecretScrubber;
  #next = 0;
  #count = 0;

  constructor(inner: Provider, options: RecordingOptions) {
    this.#inner = inner;
    this.name = inner.name;
    this.defaultModel = inner.defaultModel;
    this.capabilities = inner.capabilities;
    this.path = options.path;
    const scrubEnv = [...new Set(options.scrubEnv ?? [])];
    this.#scrubber = new SecretScrubber(options.env, options.redactKeys ?? true, scrubEnv);
    const header: CassetteHeader = {
      type: 'cassette',
      version: CASSETTE_VERSION,
      provider: inner.name,
      defaultModel: inner.defaultModel,
      capabilities: inner.capabilities,
      createdAt: (options.now?.() ?? new Date()).toISOString(),
      redactKeys: options.redactKeys ?? true,
      ...(scrubEnv.length > 0 ? { scrubEnv } : {}),
    };
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      writeFileSync(this.path, `${JSON.stringify(header)}\n`);
    } catch (error) {
      throw new CassetteError(`cannot write cassette ${this.path}: ${(error as Error).message}`, { kind: 'io', file: this.path, cause: error });
    }
    if (inner.embed) this.embed = (request) => this.#embed(request);
  }

  /** Calls recorded so far. */
  get recorded(): number {
    return this.#count;
  }

  /** Present when the wrapped provider has embeddings. */
  embed?: (request: EmbedRequest) => Promise<EmbedResponse>;

  async complete(request: ProviderRequest): Promise<ProviderResponse> {
    const index = this.#next++;
    const stored = canonicalRequest(request, this.#scrubber);
    const notices: RecordedNotice[] = [];
    try {
      const response = await this.#inner.complete(this.#withNotices(request, notices));
      this.#write({ type: 'complete', index, request: stored, response: this.#scrubber.scrub(response) as ProviderResponse, ...withNotices(notices) });
      return response;
    } catch (error) {
      this.#write({ type: 'complete', index, request: stored, error: this.#error(error), ...withNotices(notices) });
      throw error;
    }
  }

  async *stream(request: ProviderRequest): AsyncGenerator<StreamPart> {
    const index = this.#next++;
    const stored = canonicalRequest(request, this.#scrubber);
    const notices: RecordedNotice[] = [];
    const parts: StreamPart[] = [];
    let ended = false;
    try {
      for await (const part of this.#inner.stream(this.#withNotices(request, notices))) {
        parts.push(this.#scrubber.scrub(part) as StreamPart);
        yield part;
      }
      ended = true;
      this.#write({ type: 'stream', index, request: stored, parts, ...withNotices(notices) });
    } catch (error) {
      ended = true;
      this.#write({ type: 'stream', index, request: stored, parts, error: this.#error(error), ...withNotices(notices) });
      throw error;
    } finally {
      // The consumer stopped early: keep what it saw, marked as cut short.
      if (!ended) this.#write({ type: 'stream', index, request: stored, parts, truncated: true, ...withNotices(notices) });
    }
  }

  async #embed(request: EmbedRequest): Promise<EmbedResponse> {
    const index = this.#next++;
    const stored = canonicalEmbedRequest(request, this.#scrubber);
    try {
      const response = await (this.#inner as Required<Pick<Provider, 'embed'>>).embed(request);
      this.#write({ type: 'embed', index, request: stored, response });
      return response;
    } catch (error) {
      this.#write({ type: 'embed', index, request: stored, error: this.#error(error) });
      throw error;
    }
  }

  #withNotices(request: ProviderRequest, notices: RecordedNotice[]): ProviderRequest {
    const forward = request.onNotice;
    return {
      ...request,
      onNotice: (notice: ProviderNotice) => {
        notices.push(
          notice.type === 'llm-retry'
            ? { type: 'llm-retry', provider: notice.provider, attempt: notice.attempt, delayMs: notice.delayMs, error: this.#error(notice.error) }
            : { type: 'provider-fallback', from: notice.from, to: notice.to, error: this.#error(notice.error) },
        );
        forward?.(notice);
      },
    };
  }

  /** A failure as stored: its fields, with secret values scrubbed like everything else written. */
  #error(error: unknown): RecordedError {
    return this.#scrubber.scrub(recordError(error)) as RecordedError;
  }

  #write(interaction: Interaction): void {
    try {
      appendFileSync(this.path, `${JSON.stringify(interaction)}\n`);
    } catch (error) {
      throw new CassetteError(`cannot write cassette ${this.path}: ${(error as Error).message}`, { kind: 'io', file: this.path, cause: error });
    }
    this.#count++;
  }
}

function withNotices(notices: RecordedNotice[]): { notices?: RecordedNotice[] } {
  return notices.length > 0 ? { notices } : {};
}
