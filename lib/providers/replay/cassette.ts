import { readFileSync } from 'node:fs';
import { CassetteError } from '../../core/errors/cassette-error.js';
import type { Message } from '../../core/message.js';
import type { EmbedResponse, ProviderCapabilities, ProviderResponse, StreamPart } from '../spec.js';

/** Version of the cassette format; a reader refuses other versions. */
export const CASSETTE_VERSION = 1;

/** First line of a cassette file. */
export interface CassetteHeader {
  type: 'cassette';
  version: number;
  /** Name of the recorded provider (the replay provider takes it, so events and results match). */
  provider: string;
  defaultModel: string;
  capabilities: ProviderCapabilities;
  createdAt: string;
  /** Whether values under secret-looking keys were redacted (replay scrubs live requests alike). */
  redactKeys?: boolean;
  /**
   * Environment variables (names only) whose values were scrubbed whatever their names: those
   * interpolated into the agent's config. Replay scrubs the same variables' current values.
   */
  scrubEnv?: string[];
}

/** A failed call as recorded: enough to rethrow an equivalent typed error. */
export interface RecordedError {
  name: string;
  message: string;
  /** ProviderError fields, when the error was one. */
  provider?: string;
  status?: number;
  requestId?: string;
  model?: string;
  retryable?: boolean;
  retryAfterSeconds?: number;
  kind?: string;
}

/** A retry or fallback notice a wrapped provider sent during the call. */
export type RecordedNotice =
  | { type: 'llm-retry'; provider: string; attempt: number; delayMs: number; error: RecordedError }
  | { type: 'provider-fallback'; from: string; to: string; error: RecordedError };

/** A provider request as stored: JSON only, no signal or callbacks, secrets redacted. */
export interface RecordedRequest {
  model: string;
  system?: string;
  messages: Message[];
  [key: string]: unknown;
}

interface InteractionBase {
  /** Order in which the call started during recording (0-based). */
  index: number;
  notices?: RecordedNotice[];
  error?: RecordedError;
}

/** One recorded provider call. */
export type Interaction =
  | (InteractionBase & { type: 'complete'; request: RecordedRequest; response?: ProviderResponse })
  | (InteractionBase & { type: 'stream'; request: RecordedRequest; parts: StreamPart[]; truncated?: boolean })
  | (InteractionBase & { type: 'embed'; request: Record<string, unknown>; response?: EmbedResponse });

/** A parsed cassette. */
export interface Cassette {
  header: CassetteHeader;
  interactions: Interaction[];
}

const INTERACTION_TYPES = new Set(['complete', 'stream', 'embed']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses cassette JSONL text; `source` names the file in errors. */
export function parseCassette(text: string, source = 'cassette'): Cassette {
  const lines = text.split('\n');
  let header: CassetteHeader | undefined;
  const interactions: Interaction[] = [];
  const fail = (line: number, message: string): never => {
    throw new CassetteError(`${source}:${line}: ${message}`, { kind: 'format', file: source, line });
  };
  for (let i = 0; i < lines.length; i++) {
    const raw = (lines[i] as string).trim();
    if (raw === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      fail(i + 1, `not valid JSON (${(error as Error).message})`);
    }
    if (!isObject(value)) return fail(i + 1, 'expected a JSON object');
    if (header === undefined) {
      if (value.type !== 'cassette') fail(i + 1, 'the first line must be the cassette header ({"type":"cassette",…})');
      if (value.version !== CASSETTE_VERSION) {
        fail(i + 1, `unsupported cassette version ${JSON.stringify(value.version)} (this agentlib reads version ${CASSETTE_VERSION})`);
      }
      if (typeof value.provider !== 'string' || typeof value.defaultModel !== 'string' || !isObject(value.capabilities)) {
        fail(i + 1, 'the header needs provider, defaultModel and capabilities');
      }
      if (value.scrubEnv !== undefined && !(Array.isArray(value.scrubEnv) && value.scrubEnv.every((name) => typeof name === 'string'))) {
        fail(i + 1, 'the header\'s scrubEnv must be a list of environment variable names');
      }
      header = value as unknown as CassetteHeader;
      continue;
    }
    if (typeof value.type !== 'string' || !INTERACTION_TYPES.has(value.type)) {
      fail(i + 1, `unknown entry type ${JSON.stringify(value.type)} (expected complete, stream or embed)`);
    }
    if (!isObject(value.request)) fail(i + 1, 'an interaction needs a request object');
    if (value.type === 'stream' && !Array.isArray(value.parts)) fail(i + 1, 'a stream interaction needs a parts array');
    if (value.type !== 'stream' && value.response === undefined && value.error === undefined) {
      fail(i + 1, 'an interaction needs a response or an error');
    }
    interactions.push(value as unknown as Interaction);
  }
  if (header === undefined) {
    throw new CassetteError(`${source}: empty cassette (no header line)`, { kind: 'format', file: source });
  }
  interactions.sort((a, b) => a.index - b.index);
  return { header, interactions };
}

/** Reads and parses a cassette file. */
export function readCassette(path: string): Cassette {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CassetteError(`cannot read cassette ${path}: ${(error as Error).message}`, { kind: 'io', file: path, cause: error });
  }
  return parseCassette(text, path);
}
