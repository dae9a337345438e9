import { CassetteError } from '../../core/errors/cassette-error.js';
import type { EmbedRequest, EmbedResponse, Provider, ProviderCapabilities, ProviderRequest, ProviderResponse, StreamPart } from '../spec.js';
import { canonicalEmbedRequest, canonicalRequest } from './canonical-request.js';
import { readCassette, type Cassette, type Interaction, type RecordedNotice } from './cassette.js';
import { partsToResponse, responseToParts } from './convert-recorded.js';
import { firstDifference } from './json-diff.js';
import { reviveError } from './recorded-error.js';
import { SecretScrubber } from './secret-scrubber.js';

/** Options of a ReplayProvider. */
export interface ReplayOptions {
  /** Names the cassette in error messages. */
  source?: string;
  /** Environment whose secret values were scrubbed when recording. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Redact values under secret-looking keys (`password`, `api_key`, `token`, …) anywhere in the
   * conversation, as traces do. Default true. A tool whose parameters have such names then
   * replays with `[REDACTED]` arguments; turn this off when recording to replay it faithfully. Default: as recorded.
   */
  redactKeys?: boolean;
}

type ChatInteraction = Extract<Interaction, { type: 'complete' | 'stream' }>;

function preview(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/**
 * Serves a recorded cassette back with no network: each call is matched against the recorded
 * requests (exact match after the same secret scrubbing; any unused recorded call may match, so
 * parallel calls replay in any order) and answered with the recorded reply, parts, error and
 * notices. A call the cassette does not hold fails loudly with the first difference from the
 * closest recorded call. A recorded stream can answer `complete` and vice versa, so a cassette
 * recorded with one output format replays with another.
 */
export class ReplayProvider implements Provider {
  readonly name: string;
  readonly defaultModel: string;
  readonly capabilities: ProviderCapabilities;
  readonly #cassette: Cassette;
  readonly #source: string;
  readonly #scrubber: SecretScrubber;
  readonly #used = new Set<number>();
  #calls = 0;

  constructor(cassette: Cassette, options: ReplayOptions = {}) {
    this.#cassette = cassette;
    this.#source = options.source ?? 'cassette';
    this.#scrubber = new SecretScrubber(options.env, options.redactKeys ?? cassette.header.redactKeys ?? true);
    this.name = cassette.header.provider;
    this.defaultModel = cassette.header.defaultModel;
    this.capabilities = cassette.header.capabilities;
    if (cassette.interactions.some((interaction) => interaction.type === 'embed')) this.embed = (request) => this.#embed(request);
  }

  /** Reads a cassette file and replays it. */
  static fromFile(path: string, options: Omit<ReplayOptions, 'source'> = {}): ReplayProvider {
    return new ReplayProvider(readCassette(path), { ...options, source: path });
  }

  /** Present when the cassette holds embedding calls. */
  embed?: (request: EmbedRequest) => Promise<EmbedResponse>;

  /** Recorded calls not replayed (yet). */
  get unused(): number {
    return this.#cassette.interactions.length - this.#used.size;
  }

  async complete(request: ProviderRequest): Promise<ProviderResponse> {
    const interaction = this.#take(request, canonicalRequest(request, this.#scrubber), ['complete', 'stream']) as ChatInteraction;
    this.#replayNotices(request, interaction.notices);
    if (interaction.type === 'stream') {
      if (interaction.error) throw reviveError(interaction.error);
      return partsToResponse(interaction.parts);
    }
    if (interaction.error) throw reviveError(interaction.error);
    return structuredClone(interaction.response as ProviderResponse);
  }

  async *stream(request: ProviderRequest): AsyncGenerator<StreamPart> {
    const interaction = this.#take(request, canonicalRequest(request, this.#scrubber), ['stream', 'complete']) as ChatInteraction;
    this.#replayNotices(request, interaction.notices);
    const parts = interaction.type === 'stream' ? interaction.parts : interaction.response ? responseToParts(interaction.response) : [];
    for (const part of parts) {
      request.signal?.throwIfAborted();
      yield structuredClone(part);
    }
    if (interaction.error) throw reviveError(interaction.error);
  }

  async #embed(request: EmbedRequest): Promise<EmbedResponse> {
    const interaction = this.#take(request, canonicalEmbedRequest(request, this.#scrubber), ['embed']);
    if (interaction.error) throw reviveError(interaction.error);
    return structuredClone((interaction as Extract<Interaction, { type: 'embed' }>).response as EmbedResponse);
  }

  #replayNotices(request: ProviderRequest, notices: readonly RecordedNotice[] | undefined): void {
    if (!notices || !request.onNotice) return;
    for (const notice of notices) {
      request.onNotice({ ...notice, error: reviveError(notice.error) });
    }
  }

  /** Finds the first unused recorded call of an accepted type whose request equals `live`. */
  #take(request: { signal?: AbortSignal }, live: unknown, types: readonly Interaction['type'][]): Interaction {
    request.signal?.throwIfAborted();
    const call = ++this.#calls;
    const candidates = this.#cassette.interactions.filter((interaction, i) => !this.#used.has(i) && types.includes(interaction.type));
    for (const candidate of candidates) {
      if (firstDifference(candidate.request, live) === undefined) {
        this.#used.add(this.#cassette.interactions.indexOf(candidate));
        return candidate;
      }
    }
    const recorded = this.#cassette.interactions.filter((interaction) => types.includes(interaction.type)).length;
    if (candidates.length === 0) {
      throw new CassetteError(
        `${this.#source}: the run made more provider calls than the cassette holds (call ${call}; ${recorded} recorded). Record it again with --record.`,
        { kind: 'exhausted', file: this.#source },
      );
    }
    const closest = candidates[0] as Interaction;
    const difference = firstDifference(closest.request, live);
    const where = difference?.path || 'the request';
    throw new CassetteError(
      `${this.#source}: provider call ${call} does not match the cassette. The closest recorded call (#${closest.index + 1}) differs at ` +
        `${where}: recorded ${preview(difference?.expected)}, now ${preview(difference?.actual)}. Record it again with --record.`,
      { kind: 'mismatch', file: this.#source, path: where },
    );
  }
}
