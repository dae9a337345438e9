import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ToolPolicy } from '../../../lib/safety/tool-policy.js';
import { post, refundTool, scriptedAgent, serve } from './helpers.js';

describe('serve: a request\'s "approve" list cannot run a call the policy denies', () => {
  test('a requiresApproval tool denied by policy stays denied with approve ["*"]; the model gets the denial', async () => {
    const ran: string[] = [];
    const agent = scriptedAgent(
      { replies: [{ toolCalls: [{ toolName: 'refund_order', parameters: { orderId: '7' } }] }, 'done'], record: true },
      { tools: [refundTool(ran)], toolConfig: { policy: new ToolPolicy({ deny: ['refund_*'] }) } },
    );
    const served = serve(agent);
    const response = await post(served, '/invoke', { prompt: 'refund 7', approve: ['*'] });
    assert.equal(response.status, 200);
    assert.deepEqual(ran, [], 'the denied tool did not run');
    const fed = agent.provider.requests[1]?.messages.find((message) => message.role === 'tool');
    assert.match(fed?.content ?? '', /denied by policy/);
  });
});
