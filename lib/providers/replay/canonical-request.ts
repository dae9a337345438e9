import type { EmbedRequest, ProviderRequest } from '../spec.js';
import type { RecordedRequest } from './cassette.js';
import type { SecretScrubber } from './secret-scrubber.js';

/** A provider request as stored and compared: no signal, no callbacks, secrets scrubbed, JSON only. */
export function canonicalRequest(request: ProviderRequest, scrubber: SecretScrubber): RecordedRequest {
  const { signal: _signal, onNotice: _onNotice, ...rest } = request;
  return JSON.parse(JSON.stringify(scrubber.scrub(rest))) as RecordedRequest;
}

/** An embeddings request as stored and compared. */
export function canonicalEmbedRequest(request: EmbedRequest, scrubber: SecretScrubber): Record<string, unknown> {
  const { signal: _signal, ...rest } = request;
  return JSON.parse(JSON.stringify(scrubber.scrub(rest))) as Record<string, unknown>;
}
