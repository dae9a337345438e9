import type { Context } from 'hono';
import type { AgentResult } from '../../agent/result.js';
import { parseChatRequest } from '../chat-request.js';
import { readJsonBody } from '../json-body.js';
import { runAgent } from '../run-agent.js';
import type { ServeRuntime } from '../runtime.js';
import { webEventStream } from '../sse-stream.js';
import { clientClosed, throwIfAborted } from './run-outcome.js';
import { runIntoStream } from './stream-run.js';

type FinishReason = 'stop' | 'length';

function finishReason(result: AgentResult): FinishReason {
  return result.status === 'max-iterations' || result.status === 'budget-exceeded' ? 'length' : 'stop';
}

function usageOf(result: AgentResult): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  return { prompt_tokens: result.usage.promptTokens, completion_tokens: result.usage.completionTokens, total_tokens: result.usage.totalTokens };
}

/**
 * `POST /v1/chat/completions`: the agent behind the OpenAI chat-completions protocol, so the
 * official `openai` client (and anything built on it) can talk to it. The agent runs its tools
 * server-side; the client sees the final answer (streamed as `chat.completion.chunk` deltas when
 * `stream` is true, ending with `data: [DONE]`). Failures before streaming are JSON errors with
 * their status; a failure mid-stream is a `data: {"error": …}` frame (the openai client raises it).
 */
export function chatCompletionsRoute(runtime: ServeRuntime): (c: Context) => Promise<Response> {
  return async (c) => {
    const slot = runtime.tracker.acquire();
    let started = false;
    try {
      const chat = parseChatRequest(await slot.readBody((signal) => readJsonBody(c, runtime.bodyLimitBytes, signal)));
      const created = Math.floor(Date.now() / 1000);
      if (!chat.stream) {
        const result = await slot.race(runAgent(runtime.runner, chat.run, slot.runSignal()));
        throwIfAborted(slot.signal, result);
        return c.json({
          id: `chatcmpl-${result.runId}`,
          object: 'chat.completion',
          created,
          model: result.model,
          choices: [{ index: 0, message: { role: 'assistant', content: result.content, refusal: null }, logprobs: null, finish_reason: finishReason(result) }],
          usage: usageOf(result),
        });
      }
      const onClientGone = (): void => slot.abort(clientClosed());
      const { sse, response } = webEventStream(onClientGone, { keepAliveMs: runtime.keepAliveMs });
      c.req.raw.signal.addEventListener('abort', onClientGone, { once: true });
      let id = 'chatcmpl-pending';
      let model = runtime.info.model;
      const chunk = (delta: Record<string, unknown>, finish: FinishReason | null): string =>
        JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
      runIntoStream(runtime, slot, chat.run, sse, {
        label: 'chat completion failed',
        onEvent: (event) => {
          if (event.type === 'run-start') {
            id = `chatcmpl-${event.runId}`;
            model = event.model;
            sse.data(chunk({ role: 'assistant', content: '' }, null));
          } else if (event.type === 'text-delta') {
            sse.data(chunk({ content: event.text }, null));
          }
        },
        onResult: (result) => {
          model = result.model;
          sse.data(chunk({}, finishReason(result)));
          if (chat.includeUsage) sse.data(JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: usageOf(result) }));
          sse.data('[DONE]');
        },
        onFailure: (failure) => sse.data(JSON.stringify({ error: { ...failure.toJSON().error, code: failure.status } })),
      });
      started = true;
      return response;
    } finally {
      if (!started) slot.release();
    }
  };
}
