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
  /**
   * Replay recorded calls as often as a request matches them (default false: each recorded call
   * answers once, and a run that makes more calls than recorded fails with `exhausted`). A
   * request first takes the matching calls not replayed yet, in recorded order; once all of them
   * were replayed it starts over from the first. `agentlib serve` and `agentlib chat` turn this
   * on (every request or turn is a new run on the same cassette); `agentlib run` keeps it off.
   */
  reuse?: boolean;
  /** More environment variables whose values are scrubbed from live requests, besides the header's `scrubEnv`. */
  scrubEnv?: readonly string[];
}

type ChatInteraction = Extract<Interaction, { type: 'complete' | 'stream' }>;

function preview(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/** How many leading messages two requests share. */
function sharedMessages(recorded: unknown, live: unknown): number {
  const a = (recorded as { messages?: unknown }).messages;
  const b = (live as { messages?: unknown }).messages;
  if (!Array.isArray(a) || !Array.isArray(b)) return 0;
  let n = 0;
  while (n < a.length && n < b.length && firstDifference(a[n], b[n]) === undefined) n++;
  return n;
}

/** The recorded call closest to `live`: the most leading messages in common, the first recorded on a tie. */
function closestCall(candidates: readonly Interaction[], live: unknown): Interaction {
  let best = candidates[0] as Interaction;
  let bestShared = sharedMessages(best.request, live);
  for (const candidate of candidates.slice(1)) {
    const shared = sharedMessages(candidate.request, live);
    if (shared > bestShared) {
      best = candidate;
      bestShared = shared;
    }
  }
  return best;
}

/**
 * Serves a recorded cassette back with no network: each call is matched against the recorded
 * requests (exact match after the same secret scrubbing; any unused recorded call may match, so
 * parallel calls replay in any order) and answered with the recorded reply, parts, error and
 * notices. A call the cassette does not hold fails loudly with the first difference from the
 * closest recorded call. With `reuse`, recorded calls answer as often as a request matches them. A recorded stream can answer `complete` and vice versa, so a cassette
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
  readonly #reuse: boolean;
  #calls = 0;

  constructor(cassette: Cassette, options: ReplayOptions = {}) {
    this.#cassette = cassette;
    this.#source = options.source ?? 'cassette';
    this.#reuse = options.reuse ?? false;
    const scrubEnv = [...(cassette.header.scrubEnv ?? []), ...(options.scrubEnv ?? [])];
    this.#scrubber = new SecretScrubber(options.env, options.redactKeys ?? cassette.header.redactKeys ?? true, scrubEnv);
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

  /**
   * Finds the first unused recorded call of an accepted type whose request equals `live`; with
   * `reuse`, once every such call was replayed, starts over from the first of them.
   */
  #take(request: { signal?: AbortSignal }, live: unknown, types: readonly Interaction['type'][]): Interaction {
    request.signal?.throwIfAborted();
    const call = ++this.#calls;
    const recorded = this.#cassette.interactions.flatMap((interaction, i) => (types.includes(interaction.type) ? [{ interaction, i }] : []));
    const matching = recorded.filter(({ interaction }) => firstDifference(interaction.request, live) === undefined);
    let next = matching.find(({ i }) => !this.#used.has(i));
    if (next === undefined && this.#reuse && matching.length > 0) {
      for (const { i } of matching) this.#used.delete(i);
      next = matching[0];
    }
    // With reuse, a question asked again later in a conversation (chat) carries the earlier turns,
    // which no recording holds: the recorded call that matches from the latest user message on
    // answers it, as it would in a fresh conversation.
    if (next === undefined && this.#reuse) {
      const turn = fromLatestUserMessage(live);
      if (turn !== live) next = recorded.find(({ interaction }) => firstDifference(fromLatestUserMessage(interaction.request), turn) === undefined);
    }
    if (next !== undefined) {
      this.#used.add(next.i);
      return next.interaction;
    }
    const candidates = this.#reuse ? recorded : recorded.filter(({ i }) => !this.#used.has(i));
    if (candidates.length === 0) {
      throw new CassetteError(
        `${this.#source}: the run made more provider calls than the cassette holds (call ${call}; ${recorded.length} recorded). Record it again with --record.`,
        { kind: 'exhausted', file: this.#source },
      );
    }
    const closest = closestCall(candidates.map(({ interaction }) => interaction), live);
    const difference = firstDifference(closest.request, live);
    const where = difference?.path || 'the request';
    throw new CassetteError(
      `${this.#source}: provider call ${call} does not match the cassette. The closest recorded call (#${closest.index + 1}) differs at ` +
        `${where}: recorded ${preview(difference?.expected)}, now ${preview(difference?.actual)}. Record it again with --record.`,
      { kind: 'mismatch', file: this.#source, path: where },
    );
  }
}

/**
 * A chat request from its latest user message on (the turn being answered, earlier turns left
 * out); the request itself when it has no earlier messages or no messages.
 */
function fromLatestUserMessage(request: unknown): unknown {
  if (typeof request !== 'object' || request === null) return request;
  const messages = (request as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return request;
  const start = messages.findLastIndex((message: unknown) => (message as { role?: unknown } | null)?.role === 'user');
  return start <= 0 ? request : { ...request, messages: messages.slice(start) };
}
