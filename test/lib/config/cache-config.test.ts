import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { InMemoryCache, SemanticCache, SQLiteCache } from '../../../lib/cache/index.js';
import { ConfigFileError, ConfigurationError } from '../../../lib/core/errors/index.js';
import { createAgentFromConfig } from '../../../lib/config/load-agent.js';
import { parseAgentConfig } from '../../../lib/config/parse-agent-config.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';

const work = mkdtempSync(join(tmpdir(), 'agentlib-cache-config-'));
after(() => rmSync(work, { recursive: true, force: true }));

function parse(yaml: string) {
  return parseAgentConfig(`provider: openai\n${yaml}`, { baseDir: work });
}

function issues(yaml: string): string {
  try {
    parse(yaml);
  } catch (error) {
    if (ConfigFileError.isInstance(error)) return error.message;
    throw error;
  }
  assert.fail('expected a ConfigFileError');
}

describe('cache: in an agent file', () => {
  test('a URL opens that store; a repeated question is answered from it', async () => {
    const provider = new ScriptedProvider({ replies: ['first answer', 'second answer'] });
    const agent = await createAgentFromConfig(parse('cache: memory://\n'), { provider });
    assert.ok(agent.cache instanceof InMemoryCache);
    await agent.ask('same question');
    const second = await agent.ask('same question');
    assert.equal(second.content, 'first answer');
    assert.equal(provider.requests.length, 1);
  });

  test('true means .agentlib/agentlib.db next to the file; the mapping sets namespace, size and TTL', async () => {
    const provider = new ScriptedProvider({ replies: ['a'] });
    const byDefault = await createAgentFromConfig(parse('cache: true\n'), { provider });
    assert.ok(byDefault.cache instanceof SQLiteCache);
    assert.equal(byDefault.cache.path, join(work, '.agentlib', 'agentlib.db'));
    await byDefault.cache.close();
    const mapped = await createAgentFromConfig(parse('cache:\n  url: sqlite://cache.db\n  namespace: bot\n  max_size: 2\n  ttl: 10\n'), { provider });
    assert.ok(mapped.cache instanceof SQLiteCache);
    assert.equal(mapped.cache.path, join(work, 'cache.db'));
    assert.equal(mapped.cache.namespace, 'bot');
    await mapped.cache.set('a', 1);
    await mapped.cache.set('b', 2);
    await mapped.cache.set('c', 3);
    assert.equal(mapped.cache.stats().evictions, 1, 'max_size 2 applied');
    await mapped.cache.clear();
    await mapped.cache.close();
  });

  test('semantic wraps the store in a SemanticCache over the provider; a provider without embeddings is refused', async () => {
    const embedding = new ScriptedProvider({ replies: ['a'] });
    const agent = await createAgentFromConfig(parse('cache:\n  url: memory://\n  semantic: { threshold: 0.97 }\n'), { provider: embedding });
    assert.ok(agent.cache instanceof SemanticCache);
    assert.equal(agent.cache.threshold, 0.97);
    const plain = new ScriptedProvider({ replies: ['a'], capabilities: { embeddings: false } });
    await assert.rejects(createAgentFromConfig(parse('cache:\n  url: memory://\n  semantic: true\n'), { provider: plain }), (e: unknown) => ConfigurationError.isInstance(e) && /cache\.semantic needs a provider with embeddings/.test(e.message));
  });

  test('semantic.embedder: an embedder of its own, so the agent provider needs no embeddings; paraphrases hit through it', async () => {
    const plain = new ScriptedProvider({ replies: ['It is sunny in Graz.'], capabilities: { embeddings: false } });
    const agent = await createAgentFromConfig(parse('cache:\n  url: memory://\n  semantic: { embedder: "hashing:256", threshold: 0.9 }\n'), { provider: plain });
    assert.ok(agent.cache instanceof SemanticCache);
    assert.equal(agent.cache.threshold, 0.9);
    assert.equal((await agent.ask('What is the weather in Graz?')).content, 'It is sunny in Graz.');
    agent.reset();
    assert.equal((await agent.ask('what is the weather in Graz')).content, 'It is sunny in Graz.', 'served from the cache: the script had one reply');
    assert.equal(plain.requests.length, 1);
    assert.equal(agent.cache.stats().semanticHits, 1);
    await agent.cache.close();
  });

  test('semantic.embedder is checked: a known kind, and not together with embedding_model', async () => {
    assert.match(issues('cache:\n  semantic: { embedder: word2vec }\n'), /"cache\.semantic\.embedder" must be hashing, openai, gemini, ollama, cohere \(optionally :model\); got "word2vec"/);
    assert.match(issues('cache:\n  semantic: { embedder: openai, embedding_model: text-embedding-3-large }\n'), /takes embedding_model .* or embedder .*, not both/);
    await assert.rejects(
      createAgentFromConfig(parse('cache:\n  url: memory://\n  semantic: { embedder: "hashing:x" }\n'), { provider: new ScriptedProvider({ replies: ['a'] }) }),
      (e: unknown) => ConfigurationError.isInstance(e) && /hashing takes a dimension count/.test(e.message),
    );
  });

  test('wrong values are reported at their position', () => {
    assert.match(issues('cache: false\n'), /agent\.yaml:2:8: "cache: false" has no effect/);
    assert.match(issues('cache: ftp://x\n'), /"cache" must be a cache store URL \(memory:\/\/, sqlite:\/\/, redis:\/\/, rediss:\/\/\)/);
    assert.match(issues('cache:\n  urll: memory://\n'), /unknown key "urll" under "cache".*did you mean "url"/is);
    assert.match(issues('cache:\n  ttl: 0\n'), /"cache\.ttl"/);
    assert.match(issues('cache:\n  max_size: 0\n'), /"cache\.max_size"/);
  });
});
