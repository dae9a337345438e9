import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import {
  charsToTokens,
  estimateRunTokens,
  estimateRunTokensSync,
  estimateTokens,
  estimateTokensSync,
  IMAGE_TOKENS,
  MESSAGE_OVERHEAD,
  REPLY_PRIMING,
  TOOL_CALL_OVERHEAD,
  TOOL_OVERHEAD,
} from '../../../lib/agent/token-estimate.js';
import { assistantMessage, userMessage, type Message } from '../../../lib/core/message.js';

const moduleFile = fileURLToPath(new URL('../../../lib/agent/token-estimate.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Runs `script` in a child `node --import tsx` whose module resolver refuses every `gpt-tokenizer`
 * specifier (and reports that it did). Returns the child's stdout lines.
 */
function runWithTokenizerBlocked(script: string): { stdout: string; stderr: string; status: number | null } {
  const dir = mkdtempSync(join(tmpdir(), 'agentlib-tokens-'));
  try {
    writeFileSync(
      join(dir, 'hooks.mjs'),
      `export async function resolve(specifier, context, next) {
         if (specifier.includes('gpt-tokenizer')) throw new Error('blocked gpt-tokenizer: ' + specifier);
         return next(specifier, context);
       }\n`,
    );
    writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`);
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--import', pathToFileURL(join(dir, 'register.mjs')).href, '--input-type=module', '-e', script],
      { cwd: repoRoot, encoding: 'utf8', timeout: 30_000 },
    );
    return { stdout: child.stdout, stderr: child.stderr, status: child.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('token estimation', () => {
  test('importing the module does not load gpt-tokenizer; the async API falls back to chars / 4', () => {
    const script = `
      const m = await import(${JSON.stringify(pathToFileURL(moduleFile).href)});
      const sync = m.estimateTokensSync('abcdefghi');
      let probe = 'not blocked';
      try { await import('gpt-tokenizer'); } catch (e) { probe = String(e.message); }
      const est = await m.estimateTokens('abcdefghi');
      console.log(JSON.stringify({ sync, probe, method: est.method, total: est.total }));`;
    const child = runWithTokenizerBlocked(script);
    assert.equal(child.status, 0, child.stderr);
    const out = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { sync: number; probe: string; method: string; total: number };
    assert.match(out.probe, /blocked gpt-tokenizer/, 'the hook really blocks the tokenizer');
    assert.equal(out.sync, 3);
    assert.equal(out.method, 'chars');
    assert.equal(out.total, 3);
  });

  test('with the tokenizer available, text is counted with it', async () => {
    const estimate = await estimateTokens('hello world');
    assert.equal(estimate.method, 'tokenizer');
    assert.equal(estimate.total, 2);
    assert.deepEqual(estimate.breakdown, { system: 0, messages: 2, tools: 0 });
    assert.equal((await estimateTokens('')).total, 0);
    const special = await estimateTokens('<|endoftext|>');
    assert.ok(special.total > 1, 'special tokens in user text are counted as plain text, not rejected');
  });

  test('the model picks the encoding (cl100k for gpt-4 / gpt-3.5, o200k otherwise)', async () => {
    const text = 'Les chaussettes de l’archiduchesse sont-elles sèches, archi-sèches? 東京都 日本語のテキスト';
    const o200k = await estimateTokens(text, { model: 'gpt-4o' });
    const cl100k = await estimateTokens(text, { model: 'gpt-4-0613' });
    assert.equal(o200k.method, 'tokenizer');
    assert.notEqual(o200k.total, cl100k.total);
    assert.equal((await estimateTokens(text, { model: 'claude-haiku-4-5' })).total, o200k.total);
  });

  test('message lists add per-message overheads and report each message', async () => {
    const messages: Message[] = [
      userMessage('hello world'),
      assistantMessage('', [{ id: 'c1', toolName: 'get_weather', parameters: { city: 'Rome' } }]),
      userMessage('look', [{ data: 'AAAA', mediaType: 'image/png' }]),
    ];
    const estimate = await estimateTokens(messages);
    const perMessage = estimate.breakdown.perMessage!;
    assert.equal(perMessage.length, 3);
    assert.equal(perMessage[0], MESSAGE_OVERHEAD + 2);
    assert.ok(perMessage[1]! > MESSAGE_OVERHEAD + TOOL_CALL_OVERHEAD, 'tool calls are counted');
    assert.ok(perMessage[2]! >= MESSAGE_OVERHEAD + IMAGE_TOKENS, 'images are counted');
    assert.equal(estimate.breakdown.messages, perMessage.reduce((a, b) => a + b, 0) + REPLY_PRIMING);
    assert.equal(estimate.total, estimate.breakdown.messages);
  });

  test('estimateRunTokens breaks the request into system, messages and tools', async () => {
    const tool = { name: 'get_weather', description: 'Get the weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
    const estimate = await estimateRunTokens({ system: 'You are terse.', messages: [userMessage('hi')], tools: [tool], model: 'gpt-4o-mini' });
    assert.equal(estimate.method, 'tokenizer');
    assert.ok(estimate.breakdown.system > MESSAGE_OVERHEAD);
    assert.ok(estimate.breakdown.tools > TOOL_OVERHEAD);
    assert.equal(estimate.total, estimate.breakdown.system + estimate.breakdown.messages + estimate.breakdown.tools);
    const empty = await estimateRunTokens({ messages: [] });
    assert.deepEqual(empty.breakdown, { system: 0, messages: 0, tools: 0, perMessage: [] });
  });

  test('sync estimators use ceil(chars / 4)', () => {
    assert.equal(charsToTokens('abcde'), 2);
    assert.equal(estimateTokensSync(''), 0);
    assert.equal(estimateTokensSync('x'.repeat(400)), 100);
    assert.equal(estimateTokensSync([userMessage('abcdefgh')]), MESSAGE_OVERHEAD + 2 + REPLY_PRIMING);
    const run = estimateRunTokensSync({ system: 'abcd', messages: [userMessage('abcd')] });
    assert.equal(run.method, 'chars');
    assert.equal(run.breakdown.system, MESSAGE_OVERHEAD + 1);
    assert.equal(run.total, MESSAGE_OVERHEAD + 1 + MESSAGE_OVERHEAD + 1 + REPLY_PRIMING);
  });
});
