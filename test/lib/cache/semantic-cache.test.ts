import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { CacheKeyBuilder, contentWords, InMemoryCache, SemanticCache, salientTokens, swapsWords } from '../../../lib/cache/index.js';
import { userMessage } from '../../../lib/core/message.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import type { EmbedRequest, EmbedResponse } from '../../../lib/providers/spec.js';
import { eventLog, testRuntime } from '../../support/agent-harness.js';

/** An embedder with chosen vectors: texts map to [cos θ, sin θ] at the given similarity to "base". */
function angleEmbedder(similarities: Record<string, number>): { embed: (r: EmbedRequest) => Promise<EmbedResponse>; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    embed: async (request) => {
      calls.push(...request.texts);
      const embeddings = request.texts.map((text) => {
        const cos = similarities[text] ?? 0;
        return [cos, Math.sqrt(Math.max(0, 1 - cos * cos))];
      });
      return { embeddings, usage: { tokens: 1 }, model: 'angle' };
    },
  };
}

/** These tests name their questions by label ("base", "close"): the word-swap check, tested on its own below, is off. */
const labels = { refuseWordSwaps: false } as const;
const hint = (text: string, system = 'S') => CacheKeyBuilder.responseHint({ model: 'm', system, messages: [userMessage(text)] });
const key = (text: string, system = 'S') => CacheKeyBuilder.response({ model: 'm', system, messages: [userMessage(text)] });

describe('SemanticCache', () => {
  test('serves a paraphrase at or above the threshold (0.92 by default), misses below it', async () => {
    const embedder = angleEmbedder({ base: 1, close: 0.93, edge: 0.92, far: 0.91 });
    const cache = new SemanticCache(embedder, labels);
    assert.equal(cache.threshold, 0.92);
    await cache.set(key('base'), 'answer', undefined, hint('base'));
    assert.equal(await cache.get(key('close'), hint('close')), 'answer');
    assert.equal(await cache.get(key('edge'), hint('edge')), 'answer');
    assert.equal(await cache.get(key('far'), hint('far')), undefined);
    assert.deepEqual(cache.stats(), { hits: 2, misses: 1, evictions: 0, hitRate: 2 / 3, semanticHits: 2 });
  });

  test('the exact key is checked first: no embedding call for an exact hit', async () => {
    const embedder = angleEmbedder({ base: 1 });
    const cache = new SemanticCache(embedder);
    await cache.set(key('base'), 'answer', undefined, hint('base'));
    const before = embedder.calls.length;
    assert.equal(await cache.get(key('base'), hint('base')), 'answer');
    assert.equal(embedder.calls.length, before);
    assert.equal(cache.stats().semanticHits, 0);
  });

  test('only within the same scope (model, tools, system prompt, earlier messages)', async () => {
    const cache = new SemanticCache(angleEmbedder({ base: 1, close: 0.99 }), labels);
    await cache.set(key('base'), 'answer', undefined, hint('base'));
    assert.equal(await cache.get(key('close', 'Other system'), hint('close', 'Other system')), undefined);
    const otherModel = CacheKeyBuilder.responseHint({ model: 'm2', system: 'S', messages: [userMessage('close')] });
    assert.equal(await cache.get('x', otherModel), undefined);
    const withTools = CacheKeyBuilder.responseHint({ model: 'm', system: 'S', messages: [userMessage('close')], tools: [{ name: 't', description: 'a tool here', parameters: { type: 'object' } }] });
    assert.equal(await cache.get('y', withTools), undefined);
  });

  test('similar questions with different numbers or names never share an answer', async () => {
    const texts = { 'population of Lyon in 2020': 1, 'population of Lyon in 2021': 0.999, 'population of Lille in 2020': 0.999, 'Population of Lyon in 2020': 0.999 };
    const cache = new SemanticCache(angleEmbedder(texts));
    await cache.set(key('population of Lyon in 2020'), 'answer', undefined, hint('population of Lyon in 2020'));
    assert.equal(await cache.get('a', hint('population of Lyon in 2021')), undefined);
    assert.equal(await cache.get('b', hint('population of Lille in 2020')), undefined);
    assert.equal(await cache.get('c', hint('Population of Lyon in 2020')), 'answer', 'a capital at the start of a sentence is no name');
    const lax = new SemanticCache(angleEmbedder(texts), { matchSalientTokens: false, refuseWordSwaps: false });
    await lax.set(key('population of Lyon in 2020'), 'answer', undefined, hint('population of Lyon in 2020'));
    assert.equal(await lax.get('a', hint('population of Lyon in 2021')), 'answer');
  });

  test('salientTokens: numbers, quoted strings, names after the first word, acronyms', () => {
    assert.deepEqual(salientTokens('How far is Paris from "the coast" in 2024, about 1,000 km?'), ['"the coast"', '1000', '2024', 'paris']);
    assert.deepEqual(salientTokens('NASA budget'), ['nasa']);
    assert.deepEqual(salientTokens('Can I use it?'), []);
  });

  test('a similar question that swaps a content word for another misses; adding or dropping words does not', async () => {
    const texts = {
      'How do I enable two-factor authentication?': 1,
      'How do I disable two-factor authentication?': 0.99,
      'how can I enable two-factor authentication, please': 0.95,
      'How do I enable two-factor authentication on my phone?': 0.95,
    };
    const cache = new SemanticCache(angleEmbedder(texts));
    const stored = 'How do I enable two-factor authentication?';
    await cache.set(key(stored), 'answer', undefined, hint(stored));
    assert.equal(await cache.get('a', hint('How do I disable two-factor authentication?')), undefined);
    assert.deepEqual(await cache.nearest('How do I disable two-factor authentication?', hint(stored).scope ?? ''), {
      key: key(stored),
      text: stored,
      similarity: 0.99,
      salientMatch: true,
      wordSwap: true,
      roleSwap: false,
      negationMismatch: false,
    });
    assert.equal(await cache.get('b', hint('how can I enable two-factor authentication, please')), 'answer');
    assert.equal(await cache.get('c', hint('How do I enable two-factor authentication on my phone?')), 'answer', 'added words are no swap (the threshold judges them)');
    const lax = new SemanticCache(angleEmbedder(texts), { refuseWordSwaps: false });
    await lax.set(key(stored), 'answer', undefined, hint(stored));
    assert.equal(await lax.get('a', hint('How do I disable two-factor authentication?')), 'answer');
  });

  test('contentWords / swapsWords: frame words dropped, plurals and derived forms agree, particles and negations kept', () => {
    assert.deepEqual(contentWords("What's the boiling point of water, please?"), ['boil', 'point', 'water']);
    assert.deepEqual(contentWords('Where can I download my invoices?'), contentWords('where do I download my invoice'));
    assert.deepEqual(contentWords('Summarize the plot'), contentWords('Give me a summary of the plot'));
    assert.ok(swapsWords(contentWords('How do I turn off notifications?'), contentWords('How do I turn on notifications?')));
    assert.ok(swapsWords(contentWords("I can't log in"), contentWords('I can log in')) === false, 'a dropped negation is an addition, left to the threshold');
    assert.ok(contentWords("I can't log in").includes('not'));
    assert.deepEqual(contentWords("Which plans don't include support?"), contentWords('Which plans do not include support?'), 'a negation spelt out or contracted is one word');
    assert.ok(!swapsWords(contentWords('How do I turn off notifications?'), contentWords('How can I turn notifications off?')));
    assert.ok(swapsWords(contentWords('What is the chemical symbol for gold?'), contentWords('What is the chemical symbol for silver?')));
    assert.ok(!swapsWords([], []));
  });

  test('tool results and hint-less lookups are exact only', async () => {
    const embedder = angleEmbedder({ base: 1 });
    const cache = new SemanticCache(embedder);
    await cache.set('tool_result:t:1', 'r', 60, { kind: 'tool' });
    assert.equal(await cache.get('tool_result:t:1', { kind: 'tool' }), 'r');
    assert.equal(await cache.get('tool_result:t:2', { kind: 'tool' }), undefined);
    assert.deepEqual(embedder.calls, []);
  });

  test('entries expire with their TTL and the index keeps maxSize entries', async () => {
    let t = 0;
    const cache = new SemanticCache(angleEmbedder({ a: 1, b: 0.99, c: 0.5 }), { now: () => t, maxSize: 1, ...labels });
    await cache.set(key('a'), 'A', 10, hint('a'));
    t = 10_000;
    assert.equal(await cache.get('other', hint('b')), undefined, 'expired');
    await cache.set(key('a'), 'A', 10, hint('a'));
    await cache.set(key('c'), 'C', 10, hint('c'));
    assert.equal(cache.stats().evictions, 1);
    assert.equal(await cache.get('other', hint('b')), undefined, 'a was evicted from the index');
  });

  test('an agent answers a paraphrase from the cache: no provider call, a cache-hit event, tokens still counted', async () => {
    const llm = new ScriptedProvider({ replies: [{ text: 'It is sunny.', usage: { promptTokens: 5, completionTokens: 4 } }] });
    const embedder = angleEmbedder({ 'weather in Graz?': 1, 'what is the weather in Graz?': 0.95 });
    const cache = new SemanticCache(embedder, { exact: new InMemoryCache() });
    const log = eventLog();
    const agent = new Agent({ provider: llm, cache, observers: [log.observer], runtime: testRuntime() });
    await agent.ask('weather in Graz?');
    agent.reset();
    const second = await agent.ask('what is the weather in Graz?');
    assert.equal(llm.requests.length, 1);
    assert.equal(second.content, 'It is sunny.');
    assert.equal(second.usage.totalTokens, 9);
    assert.equal(log.of('cache-hit').length, 1);
    assert.equal(log.of('cache-hit')[0]?.kind, 'response');
    assert.ok(second.trace.steps.some((s) => s.type === 'cache_hit'));
  });
});
