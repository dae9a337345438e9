import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import type { Provider } from '../../../lib/providers/spec.js';
import type { RunningServer } from '../../../lib/serve/index.js';
import { launchChromium } from '../../support/chromium.js';
import { repoRoot } from '../../support/cli-build.js';
import { requires } from '../../support/requirements.js';
import { listenLocal, lookupTool, scriptedAgent, serve } from './helpers.js';

const ANSWER_CHUNKS = ['Order 42 ', 'has shipped ', 'and arrives ', 'on Friday.'];

describe('the playground in headless Chromium', requires('chromium'), () => {
  let browser: Browser;
  let server: RunningServer;
  const calls: string[] = [];
  // The last answer chunk waits for this: the partial answer (and no usage line) stays on the page
  // until the test has checked it, however slowly the machine runs.
  let releaseLastChunk!: () => void;
  const lastChunkHeld = new Promise<void>((resolve) => (releaseLastChunk = resolve));

  before(async () => {
    const agent = scriptedAgent(
      {
        respond: (request) => {
          const last = request.messages.at(-1);
          if (last?.role === 'user' && last.content.includes('break')) return { error: new ProviderError('the model is overloaded', { provider: 'scripted', status: 400 }) };
          if (last?.role === 'user') return { toolCalls: [{ toolName: 'lookup_order', parameters: { orderId: '42' } }], delayMs: 200 };
          return { chunks: ANSWER_CHUNKS, chunkDelayMs: 50, usage: { promptTokens: 120, completionTokens: 12 } };
        },
      },
      { tools: [lookupTool(calls)], model: 'gpt-4o-mini' },
    );
    const inner = agent.provider;
    const provider: Provider = {
      name: inner.name,
      defaultModel: inner.defaultModel,
      capabilities: inner.capabilities,
      complete: (request) => inner.complete(request),
      async *stream(request) {
        for await (const part of inner.stream(request)) {
          if (part.type === 'text-delta' && part.text === ANSWER_CHUNKS.at(-1)) await lastChunkHeld;
          yield part;
        }
      },
    };
    server = await listenLocal(serve({ ...agent, provider }));
    browser = await launchChromium();
  });
  after(async () => {
    releaseLastChunk();
    await browser?.close();
    await server?.close(0);
  });

  test('type a prompt: the tool call appears, text streams in, usage and cost show; nothing is requested from another origin', async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    const requested: string[] = [];
    page.on('request', (request) => void requested.push(request.url()));
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.goto(`${server.url}/playground`);
    await page.locator('#agent-name', { hasText: 'test_agent' }).waitFor();
    assert.match((await page.textContent('#meta')) ?? '', /scripted · gpt-4o-mini · tools: lookup_order/);

    await page.fill('#prompt', 'Where is order 42?');
    await page.press('#prompt', 'Enter');

    // The tool card appears as the tool runs, before the answer is there.
    const card = page.locator('.tool-card[data-tool="lookup_order"]');
    await card.waitFor();
    // Text streams: a partial answer is visible while the run is still going (no usage line yet).
    // (Polled from here: the page's CSP forbids the string evaluation waitForFunction uses.)
    let partial = '';
    const deadline = Date.now() + 5000;
    while (!partial.includes('Order 42') && Date.now() < deadline) {
      partial = (await page.locator('.msg.assistant').last().textContent()) ?? '';
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(partial.includes('Order 42') && !partial.includes('on Friday.'), `a partial answer was visible: ${JSON.stringify(partial)}`);
    assert.equal(await page.locator('#usage').count(), 0, 'no usage line while streaming');
    releaseLastChunk();
    await page.locator('#usage').waitFor({ timeout: 5000 });
    const assistant = (await page.locator('.msg.assistant').last().textContent()) ?? '';
    assert.ok(assistant.includes(ANSWER_CHUNKS.join('')), assistant);
    assert.equal(await card.getAttribute('data-status'), 'ok');
    assert.match((await card.textContent()) ?? '', /✓ lookup_order \{"orderId":"42"\}.*shipped/s);
    const usage = (await page.textContent('#usage')) ?? '';
    assert.match(usage, /2 iterations · \d+ tokens \(\d+ in, \d+ out\) · \$0\.\d{6}/);
    assert.doesNotMatch(usage, /\$0\.000000/, 'gpt-4o-mini has a price: the cost shows');
    assert.deepEqual(calls, ['42']);

    const dir = join(repoRoot, 'test-artifacts', 'serve');
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: join(dir, 'playground.png'), fullPage: true });

    // A provider failure is shown as a clear error.
    await page.fill('#prompt', 'please break');
    await page.press('#prompt', 'Enter');
    const error = page.locator('.msg.assistant .error').last();
    await error.waitFor({ timeout: 5000 });
    assert.match((await error.textContent()) ?? '', /provider_error: .*overloaded/);
    await page.screenshot({ path: join(dir, 'playground-error.png'), fullPage: true });

    const origin = new URL(server.url).origin;
    assert.ok(requested.length >= 3, `the page made its requests (${requested.length})`);
    assert.deepEqual(requested.filter((url) => new URL(url).origin !== origin), [], 'every request went to the same origin');
    assert.deepEqual(consoleErrors, [], 'no console errors (e.g. CSP violations)');
    await page.close();
  });
});
