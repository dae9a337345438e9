import { ApiError, type GoogleGenAI } from '@google/genai';
import { GeminiInStreamError, rememberResponseHeaders } from './errors.js';
import { SseErrorScanner } from './sse-error-scan.js';

/** The SDK's one fetch of every API call (`ApiClient.apiCall`, internal to `@google/genai`). */
type ApiCall = (url: string, init: RequestInit) => Promise<Response>;

const WATCHED = Symbol.for('agentlib.gemini.http-watch');

/**
 * The SDK's own check of a failed response (`throwErrorIfNotOK`), made here so the error keeps the
 * response headers (Retry-After), which the SDK's ApiError drops: the same message (the JSON error
 * body, or the text wrapped as `{"error": {message, code, status}}`) and status.
 */
async function httpError(response: Response): Promise<Error> {
  const text = await response.text();
  let body: unknown;
  if (response.headers.get('content-type')?.includes('application/json')) {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = undefined;
    }
  }
  body ??= { error: { message: text, code: response.status, status: response.statusText } };
  const message = JSON.stringify(body);
  if (response.status < 400 || response.status >= 600) return new Error(message);
  const error = new ApiError({ message, status: response.status });
  rememberResponseHeaders(error, response.headers);
  return error;
}

/**
 * The body of a streamed (`alt=sse`) response, watched for an error event (`data: {"error": …}`):
 * bytes before it reach the SDK unchanged, then the body fails with a GeminiInStreamError. A body
 * that fails on its own (reset, abort) fails the same way it would have.
 */
function watchedBody(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const scanner = new SseErrorScanner();
  let failure: Error | undefined;
  const fail = (controller: ReadableStreamDefaultController<Uint8Array>, error: Error): void => {
    controller.error(error);
    reader.cancel(error).catch(() => undefined);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (failure) {
          fail(controller, failure);
          return;
        }
        // Read until there is something to pass on (a chunk may be held back whole), or the end.
        for (;;) {
          const { done, value } = await reader.read();
          const step = done ? scanner.end() : scanner.push(value);
          let passed = false;
          for (const piece of step.forward) {
            if (piece.length === 0) continue;
            controller.enqueue(piece);
            passed = true;
          }
          if (step.error) {
            failure = new GeminiInStreamError(step.error);
            // The bytes before the error event are read first; the next read gets the error.
            if (!passed) fail(controller, failure);
            return;
          }
          if (done) {
            controller.close();
            return;
          }
          if (passed) return;
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/**
 * Makes a `@google/genai` client report what its SDK (1.52) loses: a failed response's headers
 * (Retry-After, for the ProviderError's `retryAfterSeconds`) and an error event inside a 200 stream
 * (`data: {"error": …}`, which the SDK turns into an empty response). Wraps the client's one fetch
 * (`apiClient.apiCall`, internal); once per client. Returns false, changing nothing, when the SDK
 * does not have that shape (another version): those two fall back to what the SDK reports.
 */
export function watchGeminiHttp(client: GoogleGenAI): boolean {
  const api = (client as unknown as { apiClient?: Record<PropertyKey, unknown> }).apiClient;
  if (!api || typeof api['apiCall'] !== 'function') return false;
  if (api[WATCHED] === true) return true;
  const apiCall = (api['apiCall'] as ApiCall).bind(api);
  const watched: ApiCall = async (url, init) => {
    const response = await apiCall(url, init);
    if (!response.ok) throw await httpError(response);
    if (!response.body || new URL(url).searchParams.get('alt') !== 'sse') return response;
    return new Response(watchedBody(response.body), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  api['apiCall'] = watched;
  api[WATCHED] = true;
  return true;
}
