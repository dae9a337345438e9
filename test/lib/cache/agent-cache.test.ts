import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { Agent } from '../../../lib/agent/agent.js';
import { InMemoryCache } from '../../../lib/cache/index.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { tool } from '../../../lib/tools/tool.js';
import type { Tool } from '../../../lib/tools/types.js';
import { eventLog, testRuntime } from '../../support/agent-harness.js';
import { captureStderr } from './stderr.js';

function lookupTool(counter: { runs: number }, cacheTtl = 300): Tool {
  return tool({ name: 'lookup', description: 'Expensive lookup by key', parameters: z.object({ key: z.string() }), cacheable: true, cacheTtl, execute: ({ key }) => `${key}:${++counter.runs}` });
}

describe('an agent with an InMemoryCache', () => {
  test('a cacheable tool hit emits cache-hit (kind tool) and records a cache_hit step before its cached tool_execution', async () => {
    const counter = { runs: 0 };
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'lookup', parameters: { key: 'k' } }] }, { toolCalls: [{ toolName: 'lookup', parameters: { key: 'k' } }] }, 'done'] });
    const log = eventLog();
    const cache = new InMemoryCache();
    const agent = new Agent({ provider, tools: [lookupTool(counter)], cache, observers: [log.observer], runtime: testRuntime() });
    const result = await agent.run('go');
    assert.equal(counter.runs, 1);
    const hits = log.of('cache-hit');
    assert.equal(hits.length, 1);
    assert.equal(hits[0]?.kind, 'tool');
    assert.equal(hits[0]?.toolName, 'lookup');
    assert.match(hits[0]?.key ?? '', /^tool_result:lookup:[0-9a-f]{64}$/);
    const toolHit = result.trace.steps.find((s) => s.type === 'cache_hit');
    assert.equal(toolHit?.name, 'lookup');
    assert.equal(toolHit?.metadata?.['kind'], 'tool');
    const executions = result.trace.steps.filter((s) => s.type === 'tool_execution');
    assert.deepEqual(executions.map((s) => s.metadata?.['cached']), [false, true]);
    assert.equal(cache.stats().hits, 1);
  });

  test('a tool result expires after its cacheTtl', async () => {
    let now = 0;
    const counter = { runs: 0 };
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'lookup', parameters: { key: 'k' } }] }, 'one', { toolCalls: [{ toolName: 'lookup', parameters: { key: 'k' } }] }, 'two'] });
    const cache = new InMemoryCache({ now: () => now });
    const agent = new Agent({ provider, tools: [lookupTool(counter, 5)], cache, runtime: testRuntime() });
    await agent.run('first');
    now += 5_000;
    await agent.run('second');
    assert.equal(counter.runs, 2);
  });

  test('a response hit: no provider call, usage still counted, stats count the hit; a stream bypasses the cache', async () => {
    const provider = new ScriptedProvider({ replies: [{ text: 'A', usage: { promptTokens: 3, completionTokens: 2 } }, 'B'] });
    const cache = new InMemoryCache();
    const agent = new Agent({ provider, cache, runtime: testRuntime() });
    await agent.ask('q');
    const hit = await agent.ask('q');
    assert.equal(hit.content, 'A');
    assert.equal(hit.usage.totalTokens, 5);
    assert.equal(provider.requests.length, 1);
    assert.deepEqual(cache.stats(), { hits: 1, misses: 1, evictions: 0, hitRate: 0.5 });
    const stream = agent.stream('q');
    for await (const _ of stream) void _;
    assert.equal((await stream.result).content, 'B');
    assert.equal(provider.requests.length, 2);
  });

  test('verbose: a cache-hit line for replies and tools, and tool logs, on stderr', async () => {
    const counter = { runs: 0 };
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'lookup', parameters: { key: 'k' } }] }, { toolCalls: [{ toolName: 'lookup', parameters: { key: 'k' } }] }, 'done'] });
    const agent = new Agent({ provider, tools: [lookupTool(counter)], cache: new InMemoryCache(), verbose: true, runtime: testRuntime() });
    const err = await captureStderr(async () => {
      await agent.run('go');
      agent.reset();
      await agent.run('go');
    });
    assert.match(err, /\[agentlib\] cache hit for tool lookup/);
    assert.match(err, /\[agentlib\] tool lookup \(cached\) \d+ ms/);
    assert.match(err, /\[agentlib\] cache hit for scripted-model/);
  });
});
