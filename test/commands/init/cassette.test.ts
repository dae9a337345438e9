import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { cassettePrompt, retargetCassette } from '../../../commands/init/cassette.js';
import { repoRoot } from '../../support/cli-build.js';

const header = { type: 'cassette', version: 1, provider: 'openai', defaultModel: 'gpt-4o-mini', capabilities: { tools: true }, createdAt: 't', redactKeys: true };
const call = {
  type: 'stream',
  index: 0,
  request: { model: 'gpt-4o-mini', system: 's', messages: [{ role: 'user', content: 'How much leave?' }], temperature: 0 },
  parts: [{ type: 'text-delta', text: 'model gpt-4o-mini says hi' }, { type: 'finish', finishReason: 'stop', model: 'gpt-4o-mini' }],
};
const text = `${JSON.stringify(header)}\n${JSON.stringify(call)}\n`;

describe('init cassette', () => {
  test('retargetCassette sets the provider and model in the header, every request and the finish parts, nothing else', () => {
    const lines = retargetCassette(text, { provider: 'anthropic', model: 'claude-haiku-4-5' })
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(lines[0], { ...header, provider: 'anthropic', defaultModel: 'claude-haiku-4-5' });
    assert.deepEqual(lines[1], {
      ...call,
      request: { ...call.request, model: 'claude-haiku-4-5' },
      parts: [call.parts[0], { type: 'finish', finishReason: 'stop', model: 'claude-haiku-4-5' }],
    });
  });

  test('retargetCassette to the recorded provider and model changes nothing', () => {
    const cassette = readFileSync(join(repoRoot, 'templates', 'rag_chatbot', 'cassette.jsonl'), 'utf8');
    assert.equal(retargetCassette(cassette, { provider: 'openai', model: 'gpt-4o-mini' }), cassette);
  });

  test('cassettePrompt is the first user message', () => {
    assert.equal(cassettePrompt(text), 'How much leave?');
    assert.equal(cassettePrompt(`${JSON.stringify(header)}\n`), undefined);
  });
});
