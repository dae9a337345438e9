import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../../lib/agent/agent.js';
import { getModelInfo } from '../../../../lib/providers/models/index.js';
import { eventLog, testRuntime } from '../../../support/agent-harness.js';
import { fixture, sseResponse, startReplayServer, type ReplayServer } from '../../../support/replay-server.js';
import { dataChunks, providerFor } from './helpers.js';

/** USD at the registry's list price of `model` (what the agent must charge for the streamed counts). */
function listPrice(model: string, promptTokens: number, completionTokens: number): number {
  const info = getModelInfo(model);
  assert.ok(info, `${model} is in the model registry`);
  assert.ok(info.promptPricePer1M > 0 && info.completionPricePer1M > 0, `${model} has a price`);
  return (promptTokens * info.promptPricePer1M + completionTokens * info.completionPricePer1M) / 1_000_000;
}

describe('Agent streaming on the OpenAI adapter: usage and cost from the usage chunk', () => {
  let server: ReplayServer;
  before(async () => (server = await startReplayServer()));
  after(async () => server.close());

  const cases = [
    // [recording, the model the stream reports, prompt, completion, extra usage fields]
    { file: 'chat.text.stream.include_usage.sse', reported: 'gpt-4o-2024-08-06', priced: 'gpt-4o', prompt: 14, completion: 30, extra: { reasoningTokens: 0 } },
    { file: 'chat.text.stream.langchaingo.sse', reported: 'gpt-3.5-turbo-0125', priced: 'gpt-3.5-turbo', prompt: 14, completion: 13, extra: { reasoningTokens: 0, cachedPromptTokens: 0 } },
  ];

  for (const c of cases) {
    test(`${c.file}: exact usage, priced at ${c.priced}'s registry price, on the usage event, llm-end and the result`, async () => {
      const recording = fixture(`openai/${c.file}`);
      const last = dataChunks(recording.toString('utf8')).at(-1)!.usage!;
      assert.deepEqual([last.prompt_tokens, last.completion_tokens], [c.prompt, c.completion], 'the recording carries these counts');
      server.enqueue(sseResponse(recording, 11));
      const log = eventLog();
      // The agent asks for gpt-4o; the cost must follow the model the stream reports having used.
      const stream = new Agent({ provider: providerFor(server), model: 'gpt-4o', runtime: testRuntime(), observers: [log.observer] }).stream('hi');
      for await (const event of stream) void event;
      const result = await stream.result;

      const costUsd = listPrice(c.reported, c.prompt, c.completion);
      assert.equal(getModelInfo(c.reported)?.id, c.priced);
      const expected = { promptTokens: c.prompt, completionTokens: c.completion, totalTokens: c.prompt + c.completion, costUsd, embeddingTokens: 0, embeddingCostUsd: 0, ...c.extra };
      const usageEvents = log.of('usage');
      assert.equal(usageEvents.length, 1);
      assert.deepEqual(usageEvents[0]!.usage, expected, 'exact, not estimated');
      assert.deepEqual(usageEvents[0]!.total, { promptTokens: c.prompt, completionTokens: c.completion, totalTokens: c.prompt + c.completion, totalCostUsd: costUsd, llmCalls: 1 });
      assert.deepEqual(log.of('llm-end')[0]?.usage, expected);
      assert.equal(result.usage.promptTokens, c.prompt);
      assert.equal(result.usage.completionTokens, c.completion);
      assert.equal(result.usage.totalTokens, c.prompt + c.completion);
      assert.equal(result.usage.totalCostUsd, costUsd);
      assert.equal(result.usage.llmCalls, 1);
      if (c.priced !== 'gpt-4o') assert.notEqual(costUsd, listPrice('gpt-4o', c.prompt, c.completion), 'priced by the reported model, not the requested one');
    });
  }
});
