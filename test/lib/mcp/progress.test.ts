import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent } from '../../../lib/agent/agent.js';
import { MCPClient } from '../../../lib/mcp/mcp-client.js';
import { MCPServer } from '../../../lib/mcp/mcp-server.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { Role } from '../../../lib/core/role.js';
import { tool } from '../../../lib/tools/tool.js';
import type { ToolProgress } from '../../../lib/tools/types.js';
import { eventLog } from '../../support/agent-harness.js';
import { everythingStdio, startEverythingHttp, type RunningEverything } from '../../support/mcp-servers.js';

// server-everything's trigger-long-running-operation sends notifications/progress after each step
// when the request carries a progress token.
const LONG = { duration: 0.15, steps: 3 };
const DONE = 'Long running operation completed. Duration: 0.15 seconds, Steps: 3.';

describe('MCP progress notifications (server-everything from npm)', () => {
  let http: RunningEverything;
  before(async () => {
    http = await startEverythingHttp();
  });
  after(() => http.close());

  for (const transport of ['stdio', 'Streamable HTTP'] as const) {
    test(`${transport}: an agent run emits each progress report as a tool-chunk event; the result is the tool's answer only`, async () => {
      await using client = new MCPClient(transport === 'stdio' ? everythingStdio() : { name: 'everything', url: http.url }, { prefix: 'everything', tools: ['trigger-long-running-operation'] });
      const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'everything_trigger_long_running_operation', parameters: LONG }] }, 'Done.'] });
      const log = eventLog();
      const agent = new Agent({ provider, tools: await client.tools(), observers: [log.observer] });
      const result = await agent.run('run the long operation');
      assert.equal(result.status, 'completed');
      const chunks = log.of('tool-chunk');
      assert.deepEqual(
        chunks.map((c) => [c.toolName, c.chunk, c.progress]),
        [1, 2, 3].map((i) => ['everything_trigger_long_running_operation', `progress ${i}/3\n`, { progress: i, total: 3 }]),
      );
      const callId = log.of('tool-start')[0]?.callId;
      assert.ok(chunks.every((c) => c.callId === callId));
      // Every chunk came before the call ended; the model sees the answer, not the progress lines.
      const types = log.types();
      assert.ok(types.lastIndexOf('tool-chunk') < types.indexOf('tool-end'));
      assert.equal(log.of('tool-end')[0]?.result, DONE);
      const toolMessage = provider.requests[1]?.messages.find((m) => m.role === Role.TOOL);
      assert.equal(toolMessage?.content, DONE);
    });
  }

  test('callTool({ onProgress }) receives the reports; without it the call just answers', async () => {
    await using client = new MCPClient(everythingStdio());
    const seen: ToolProgress[] = [];
    const answer = await client.callTool('trigger-long-running-operation', LONG, { onProgress: (update) => seen.push(update) });
    assert.equal(answer.text, DONE);
    assert.deepEqual(seen, [1, 2, 3].map((progress) => ({ progress, total: 3 })));
    assert.equal((await client.callTool('trigger-long-running-operation', LONG)).text, DONE);
  });
});

describe('agentlib MCPServer sends a served tool\'s ctx.progress as notifications/progress', () => {
  const reporting = tool({
    name: 'index_files',
    description: 'Indexes files and reports its progress',
    parameters: { type: 'object', properties: { files: { type: 'number' } }, required: ['files'] },
    execute: (args: Record<string, unknown>, ctx) => {
      const files = Number(args['files']);
      for (let i = 1; i <= files; i++) ctx.progress?.({ progress: i, total: files, message: `file ${i}` });
      return `indexed ${files} files`;
    },
  });

  test('to the official SDK client that asked for progress, and none to one that did not', async () => {
    const running = await new MCPServer({ tools: [reporting] }).listen();
    const client = new Client({ name: 'sdk', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
      const seen: unknown[] = [];
      const result = await client.callTool({ name: 'index_files', arguments: { files: 2 } }, undefined, { onprogress: (p) => seen.push(p) });
      assert.deepEqual(result.content, [{ type: 'text', text: 'indexed 2 files' }]);
      assert.deepEqual(seen, [
        { progress: 1, total: 2, message: 'file 1' },
        { progress: 2, total: 2, message: 'file 2' },
      ]);
      const quiet = await client.callTool({ name: 'index_files', arguments: { files: 2 } });
      assert.deepEqual(quiet.content, [{ type: 'text', text: 'indexed 2 files' }]);
    } finally {
      await client.close();
      await running.close();
    }
  });

  test('end to end: an agent using agentlib\'s client on agentlib\'s server gets tool-chunk events with the messages', async () => {
    const running = await new MCPServer({ tools: [reporting] }).listen();
    try {
      await using client = new MCPClient({ name: 'idx', url: running.url }, { prefix: 'idx' });
      const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'idx_index_files', parameters: { files: 2 } }] }, 'Indexed.'] });
      const log = eventLog();
      const agent = new Agent({ provider, tools: await client.tools(), observers: [log.observer] });
      assert.equal((await agent.run('index')).status, 'completed');
      assert.deepEqual(log.of('tool-chunk').map((c) => c.chunk), ['progress 1/2: file 1\n', 'progress 2/2: file 2\n']);
      assert.equal(log.of('tool-end')[0]?.result, 'indexed 2 files');
    } finally {
      await running.close();
    }
  });
});
