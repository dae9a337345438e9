import { ProviderError } from '../../core/errors/provider-error.js';
import { providerHttpError, providerTransportError } from '../provider-errors.js';
import { scrubProviderFailure } from '../scrub-provider-failure.js';
import { MalformedLineError, type OllamaCall } from './call.js';

/** The provider name used on errors, responses and usage. */
export const OLLAMA = 'ollama';

/** Error codes of a host that cannot be reached at all (nothing listening, unknown name, no route). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
/** Error codes of a connection that broke. */
const BROKEN = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    const nested = (current as { errors?: unknown }).errors;
    if (Array.isArray(nested)) codes.push(...nested.flatMap((inner) => errorCodes(inner)));
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

function isResponseError(error: unknown): error is Error & { status_code: number; error?: string } {
  return error instanceof Error && error.name === 'ResponseError' && typeof (error as { status_code?: unknown }).status_code === 'number';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Turns whatever a call to the Ollama SDK threw into what the provider throws: the request
 * signal's reason when the caller aborted, otherwise a typed ProviderError (HTTP status, timeout,
 * connection, broken stream). Never returns an error made into text. The call's credentials and
 * anything shaped like one are scrubbed from the error and its causes.
 */
export function toOllamaError(error: unknown, call: OllamaCall): unknown {
  return scrubProviderFailure(mapError(error, call), call.credentials);
}

function mapError(error: unknown, call: OllamaCall): unknown {
  if (call.signal?.aborted) return call.signal.reason;
  if (ProviderError.isInstance(error)) return error;
  const extra = { model: call.model, cause: error };
  if (call.timedOut) {
    return providerTransportError(OLLAMA, 'timeout', `Ollama at ${call.host}: ${call.control.describeTimeout()}`, extra);
  }
  if (error instanceof MalformedLineError) return providerTransportError(OLLAMA, 'stream', error.message, extra);
  if (isResponseError(error)) {
    return providerHttpError({
      provider: OLLAMA,
      status: error.status_code,
      message: error.error ?? error.message,
      model: call.model,
      ...(call.headers ? { headers: call.headers } : {}),
      cause: error,
    });
  }
  if (/did not receive done/i.test(messageOf(error))) {
    return providerTransportError(OLLAMA, 'stream', `the stream from Ollama at ${call.host} ended before its final "done" line`, extra);
  }
  const codes = errorCodes(error);
  const unreachable = codes.find((code) => UNREACHABLE.has(code));
  if (unreachable) {
    return providerTransportError(
      OLLAMA,
      'connection',
      `cannot connect to Ollama at ${call.host} (${unreachable}). Is Ollama running? Start it with \`ollama serve\` or set OLLAMA_HOST.`,
      extra,
    );
  }
  const broken = codes.find((code) => BROKEN.has(code));
  if (broken || (error instanceof TypeError && /fetch failed|terminated|socket/i.test(error.message))) {
    return providerTransportError(OLLAMA, 'connection', `the connection to Ollama at ${call.host} failed (${broken ?? messageOf(error)})`, extra);
  }
  if (error instanceof SyntaxError) {
    return providerTransportError(OLLAMA, 'stream', `Ollama at ${call.host} sent invalid JSON: ${error.message}`, extra);
  }
  return providerTransportError(OLLAMA, 'stream', messageOf(error), { ...extra, retryable: false });
}
