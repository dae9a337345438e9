import { z } from 'zod';
import { createParser } from 'eventsource-parser';
import type { AgentConfig } from '../../../lib/agent/types.js';
import { ScriptedProvider, type ScriptedProviderOptions } from '../../../lib/providers/scripted.js';
import { createServeApp, listen, type RunningServer, type ServeApp, type ServeAppOptions } from '../../../lib/serve/index.js';
import { tool } from '../../../lib/tools/tool.js';
import type { Tool } from '../../../lib/tools/types.js';

/** `lookup_order(orderId)`: always allowed; records calls. */
export function lookupTool(calls: string[] = []): Tool {
  return tool({
    name: 'lookup_order',
    description: 'Look up an order by its id',
    parameters: z.object({ orderId: z.string() }),
    execute: ({ orderId }) => {
      calls.push(orderId);
      return { orderId, status: 'shipped' };
    },
  });
}

/** `refund_order(orderId)`: review-gated (requiresApproval); records calls that ran. */
export function refundTool(calls: string[] = []): Tool {
  return tool({
    name: 'refund_order',
    description: 'Refund an order (needs approval)',
    parameters: z.object({ orderId: z.string() }),
    requiresApproval: true,
    execute: ({ orderId }) => {
      calls.push(orderId);
      return { orderId, refunded: true };
    },
  });
}

/** An agent config on a ScriptedProvider with no retries (a provider failure fails at once). */
export function scriptedAgent(options: ScriptedProviderOptions, extra: Omit<Partial<AgentConfig>, 'provider'> = {}): AgentConfig & { provider: ScriptedProvider } {
  return { name: 'test_agent', retry: { maxRetries: 0 }, ...extra, provider: new ScriptedProvider({ record: false, ...options }) };
}

/** A served agent with quiet error logging (failures are collected in `errors`). */
export function serve(agent: AgentConfig, options: Omit<ServeAppOptions, 'agent'> = {}): ServeApp & { errors: unknown[] } {
  const errors: unknown[] = [];
  const served = createServeApp({ agent, logError: (_message, error) => void errors.push(error), keepAliveMs: 0, ...options });
  return Object.assign(served, { errors });
}

/** POSTs JSON (a string body is sent as is) to an app. */
export function post(served: ServeApp, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(
    served.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) }),
  );
}

/** The JSON error body every failure has. */
export interface ErrorBody {
  error: { type: string; message: string };
}

/** One parsed server-sent event. */
export interface SseEvent {
  event: string;
  data: unknown;
  /** ms since the request was sent. */
  at: number;
}

/** Reads a whole event stream with eventsource-parser, timestamping each event as it arrives. */
export async function readSse(response: Response, started = performance.now(), onEvent?: (event: SseEvent) => void): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const parser = createParser({
    onEvent: (message) => {
      const event = { event: message.event ?? 'message', data: message.data === '[DONE]' ? '[DONE]' : (JSON.parse(message.data) as unknown), at: performance.now() - started };
      events.push(event);
      onEvent?.(event);
    },
  });
  const decoder = new TextDecoder();
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  return events;
}

/** Starts a real server on 127.0.0.1:0 for `served`. */
export function listenLocal(served: ServeApp): Promise<RunningServer> {
  return listen(served, { port: 0, host: '127.0.0.1' });
}

/** Waits until `predicate` holds (polling), or fails after `ms`. */
export async function until(predicate: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
