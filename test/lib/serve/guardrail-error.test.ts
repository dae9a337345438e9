import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GuardrailsPipeline } from '../../../lib/safety/guardrails/guardrails-pipeline.js';
import { FormatGuardrail } from '../../../lib/safety/guardrails/format-guardrail.js';
import { TopicGuardrail } from '../../../lib/safety/guardrails/topic-guardrail.js';
import { post, scriptedAgent, serve } from './helpers.js';

describe('serve: a guardrail block is a 4xx JSON error of its own type', () => {
  test('blocked input: 400 guardrail_error on /invoke, before any model call', async () => {
    const agent = scriptedAgent({ replies: ['never'] }, { guardrails: new GuardrailsPipeline({ input: [new TopicGuardrail({ keywords: ['politics'] })] }) });
    const served = serve(agent);
    const response = await post(served, '/invoke', { prompt: 'your view on politics?' });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { error: { type: string; message: string } };
    assert.equal(body.error.type, 'guardrail_error');
    assert.match(body.error.message, /Guardrail 'topic' blocked the input: blocked topic: politics/);
    assert.equal(agent.provider.requests.length, 0);
  });

  test('blocked answer: 422 guardrail_error', async () => {
    const agent = scriptedAgent({ replies: ['not json'] }, { guardrails: { output: [new FormatGuardrail({ json: true })] } });
    const response = await post(serve(agent), '/invoke', { prompt: 'json please' });
    assert.equal(response.status, 422);
    assert.equal(((await response.json()) as { error: { type: string } }).error.type, 'guardrail_error');
  });
});
