import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { Agent } from '../../../lib/agent/agent.js';
import { AgentGraph } from '../../../lib/graph/agent-graph.js';
import { InMemoryCheckpointStore } from '../../../lib/graph/checkpoint/memory-store.js';
import { interrupt } from '../../../lib/graph/interrupt.js';
import type { Interruptible } from '../../../lib/graph/types.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import type { Provider } from '../../../lib/providers/spec.js';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import { ErrorPolicy } from '../../../lib/graph/constants.js';
import { createGraphServeApp, listen, type RunningServer } from '../../../lib/serve/index.js';
import { launchChromium } from '../../support/chromium.js';
import { repoRoot } from '../../support/cli-build.js';
import { requires } from '../../support/requirements.js';
import { lookupTool } from './helpers.js';

// The playground of a served graph in real headless Chromium: prepare (function) → gather (a
// parallel group: an agent that streams, a function) → review (asks a person) → router → publish.
// Two holds keep the parallel branches running until the test has seen them running.

const FACT_CHUNKS = ['Tides come ', 'from the moon ', '<b>and</b> the sun.'];
const HOSTILE = '<img src=x id=pwned onerror=document.title=1>';

function hold(): { wait: Promise<void>; release: () => void } {
  let release!: () => void;
  const wait = new Promise<void>((resolve) => (release = resolve));
  return { wait, release };
}

/** Polls `read` until `ok` holds (the page's CSP forbids the string evaluation waitForFunction uses). */
async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!ok(value)) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    value = await read();
  }
  return value;
}

/** An element as the page functions read it (the test compiles without the DOM types). */
interface Attributed {
  getAttribute(name: string): string | null;
}

/** Node key → its state in the graph panel, in drawing order. */
async function statuses(page: Page): Promise<Record<string, string>> {
  const pairs = await page.locator('#nodes .node').evaluateAll((rows) => (rows as unknown as Attributed[]).map((row): [string, string] => [row.getAttribute('data-node') ?? '', row.getAttribute('data-status') ?? '']));
  return Object.fromEntries(pairs);
}

describe('the graph playground in headless Chromium', requires('chromium'), () => {
  let browser: Browser;
  let server: RunningServer;
  let nestedServer: RunningServer;
  const textHold = hold();
  const quotesHold = hold();
  const published: string[] = [];

  before(async () => {
    const scripted = new ScriptedProvider({ respond: () => ({ chunks: FACT_CHUNKS, usage: { promptTokens: 40, completionTokens: 9 } }), defaultModel: 'gpt-4o-mini' });
    const provider: Provider = {
      name: scripted.name,
      defaultModel: scripted.defaultModel,
      capabilities: scripted.capabilities,
      complete: (request) => scripted.complete(request),
      async *stream(request) {
        for await (const part of scripted.stream(request)) {
          if (part.type === 'text-delta' && part.text === FACT_CHUNKS.at(-1)) await textHold.wait;
          yield part;
        }
      },
    };
    const graph = new AgentGraph({ name: 'article_flow' })
      .addNode('prepare', (state) => {
        const topic = String(state.messages.at(-1)?.content);
        if (topic.includes('fail')) throw new Error('the source is unreachable');
        return `topic: ${topic}`;
      }, { next: 'gather' })
      .addParallelNodes('gather', {
        facts: new Agent({ name: 'fact_finder', provider, model: 'gpt-4o-mini', retry: { maxRetries: 0 } }),
        quotes: async () => {
          await quotesHold.wait;
          return 'two quotes';
        },
      }, { next: 'review' })
      .addNode('review', async function* (state): Interruptible {
        const answer = yield interrupt('Publish the article?', { draft: state.data['__last_output__'], note: HOSTILE });
        return String(answer);
      })
      .addConditionalEdge('review', (state) => (String(state.data['__last_output__']).startsWith('approved') ? 'publish' : AgentGraph.END), { targets: ['publish', AgentGraph.END] })
      .addNode('publish', (state) => {
        published.push(String(state.data['__last_output__']));
        return `PUBLISHED (${String(state.data['__last_output__'])})`;
      })
      .setEntry('prepare');
    const served = createGraphServeApp({ graph, checkpointStore: new InMemoryCheckpointStore(), keepAliveMs: 0, logError: () => undefined });
    server = await listen(served, { port: 0, host: '127.0.0.1' });

    // flaky (an agent whose provider fails; ErrorPolicy SKIP) → team (a subgraph: writer, an agent with a tool → ask) → END
    const writer = new ScriptedProvider({
      respond: (request) => (request.messages.at(-1)?.role === 'user' ? { toolCalls: [{ toolName: 'lookup_order', parameters: { orderId: '7' } }] } : { chunks: ['Order 7 ', 'shipped.'] }),
    });
    const team = new AgentGraph({ name: 'team_graph' })
      .addNode('writer', new Agent({ name: 'writer', provider: writer, tools: [lookupTool()], retry: { maxRetries: 0 } }), { next: 'ask' })
      .addNode('ask', async function* (state): Interruptible {
        const answer = yield interrupt('Sign off?', { text: state.data['__last_output__'] });
        return `signed: ${String(answer)}`;
      })
      .setEntry('writer');
    const nested = new AgentGraph({ name: 'nested_flow' })
      .addNode('flaky', new Agent({ name: 'flaky', provider: new ScriptedProvider({ respond: () => ({ error: new ProviderError('flaky source down', { provider: 'scripted', status: 400 }) }) }), retry: { maxRetries: 0 } }), { errorPolicy: ErrorPolicy.SKIP, next: 'team' })
      .addSubgraph('team', team)
      .setEntry('flaky');
    nestedServer = await listen(createGraphServeApp({ graph: nested, checkpointStore: new InMemoryCheckpointStore(), keepAliveMs: 0, logError: () => undefined }), { port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
  });
  after(async () => {
    textHold.release();
    quotesHold.release();
    await browser?.close();
    await server?.close(0);
    await nestedServer?.close(0);
  });

  test('run: nodes go running → done, branches side by side, text streams; the question is answered in the page and the run finishes', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const requested: string[] = [];
    page.on('request', (request) => void requested.push(request.url()));
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => void consoleErrors.push(error.message));
    await page.goto(`${server.url}/`);
    assert.equal(new URL(page.url()).pathname, '/playground', 'GET / leads to the playground');
    await page.locator('#graph-name', { hasText: 'article_flow' }).waitFor();
    // The graph panel: every node (parallel members under their group), its kind and its edges.
    assert.deepEqual(Object.keys(await statuses(page)), ['prepare', 'gather', 'facts', 'quotes', 'review', 'publish']);
    assert.ok(Object.values(await statuses(page)).every((s) => s === 'pending'));
    assert.match((await page.textContent('.node[data-node="prepare"]')) ?? '', /prepare.*function.*entry.*→ gather/s);
    assert.match((await page.textContent('.node[data-node="facts"]')) ?? '', /agent fact_finder/);
    assert.match((await page.textContent('.node[data-node="review"]')) ?? '', /⇢ publish \| END \(router\)/);

    await page.fill('#prompt', 'tides');
    await page.press('#prompt', 'Enter');

    // Both branches are running at once (held), prepare is done, review has not started.
    const running = await eventually(() => statuses(page), (s) => s['facts'] === 'running' && s['quotes'] === 'running', 'both branches running');
    assert.equal(running['prepare'], 'done');
    assert.equal(running['gather'], 'running');
    assert.equal(running['review'], 'pending');
    assert.equal(await page.locator('.parallel > .node-card').count(), 2, 'the two branches side by side');
    const partial = await eventually(async () => (await page.textContent('.node-card[data-node="facts"]')) ?? '', (t) => t.includes('from the moon'), 'streamed text in the facts card');
    assert.ok(!partial.includes('the sun'), `only part of the answer so far: ${partial}`);
    assert.equal(await page.locator('#usage').count(), 0, 'no usage line while running');

    textHold.release();
    quotesHold.release();
    const question = page.locator('form.question');
    await question.waitFor({ timeout: 5000 });
    const waiting = await statuses(page);
    assert.deepEqual(waiting, { prepare: 'done', gather: 'done', facts: 'done', quotes: 'done', review: 'interrupted', publish: 'pending' });
    assert.match((await question.locator('.prompt-text').textContent()) ?? '', /^Publish the article\?$/);
    const payload = (await question.locator('.payload').textContent()) ?? '';
    assert.ok(payload.includes(HOSTILE), 'the payload is shown as text');
    assert.equal(await page.locator('#pwned').count(), 0, 'no element was made from the payload');
    assert.ok(((await page.textContent('.node-card[data-node="facts"]')) ?? '').includes('<b>and</b> the sun.'), 'model text is shown as text');
    assert.equal(await page.locator('.node-card b').count(), 0);
    const thread = (await page.getAttribute('.msg.run', 'data-thread')) ?? '';
    assert.match(thread, /\S/, 'the thread id is shown');
    assert.ok(((await page.textContent('.msg.run .who')) ?? '').includes(thread));
    // The answer box has the focus: type and press Enter.
    assert.equal(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { className: string } | null } }).document.activeElement?.className), 'answer');
    await page.keyboard.type('approved, ship it');
    await page.keyboard.press('Enter');

    await page.locator('#final').waitFor({ timeout: 5000 });
    assert.equal((await page.textContent('#final .text')) ?? '', 'PUBLISHED (approved, ship it)');
    assert.deepEqual(published, ['approved, ship it']);
    assert.deepEqual(await statuses(page), { prepare: 'done', gather: 'done', facts: 'done', quotes: 'done', review: 'done', publish: 'done' });
    assert.deepEqual(await page.locator('.msg.run .node-card').evaluateAll((cards) => (cards as unknown as Attributed[]).map((c) => c.getAttribute('data-node'))), ['prepare', 'gather', 'facts', 'quotes', 'review', 'publish'], 'one card per node run, in order (review kept its card across the answer)');
    assert.ok(await page.locator('.route[data-from="review"][data-to="publish"]', { hasText: '(router)' }).count() === 1, 'the routing decision is shown');
    assert.match((await page.textContent('form.question')) ?? '', /answered: approved, ship it/);
    const usage = (await page.textContent('#usage')) ?? '';
    assert.match(usage, /\d+ steps · 49 tokens \(40 in, 9 out\) · \$0\.\d{6} · completed/);
    assert.doesNotMatch(usage, /\$0\.000000/, 'gpt-4o-mini has a price: the cost shows');

    const dir = join(repoRoot, 'test-artifacts', 'serve');
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: join(dir, 'graph-playground.png'), fullPage: true });

    // A failing node: its row and card turn failed and the error is shown.
    await page.fill('#prompt', 'please fail');
    await page.press('#prompt', 'Enter');
    const error = page.locator('.msg.run').last().locator('.error');
    await error.waitFor({ timeout: 5000 });
    assert.match((await error.textContent()) ?? '', /internal_error: .*\(HTTP 500\)/);
    assert.equal((await statuses(page))['prepare'], 'failed');
    const failed = page.locator('.msg.run').last().locator('.node-card[data-node="prepare"][data-status="failed"]');
    assert.match((await failed.textContent()) ?? '', /GraphExecutionError: .*the source is unreachable/, 'the graph-error event names the node and its error');

    const origin = new URL(server.url).origin;
    assert.ok(requested.length >= 4, `the page made its requests (${requested.length})`);
    assert.deepEqual(requested.filter((url) => new URL(url).origin !== origin), [], 'every request went to the same origin');
    assert.deepEqual(consoleErrors, [], 'no console errors (e.g. CSP violations)');
    await page.close();
  });

  test('a thread id reopens the pending question after a reload; an interrupt answered elsewhere is a clear 409', async () => {
    const first = await browser.newPage();
    await first.goto(`${server.url}/playground`);
    await first.locator('#graph-name', { hasText: 'article_flow' }).waitFor();
    await first.fill('#prompt', 'moons');
    await first.press('#prompt', 'Enter');
    await first.locator('form.question').waitFor({ timeout: 5000 });
    const thread = (await first.getAttribute('.msg.run', 'data-thread')) ?? '';
    const interruptId = (await first.getAttribute('form.question', 'data-interrupt')) ?? '';
    await first.close();

    // A new page: open the thread from the settings, answer with JSON.
    const page = await browser.newPage();
    await page.goto(`${server.url}/playground`);
    await page.locator('#graph-name', { hasText: 'article_flow' }).waitFor();
    await page.click('summary');
    await page.fill('#thread', thread);
    await page.press('#thread', 'Enter');
    const question = page.locator('form.question');
    await question.waitFor({ timeout: 5000 });
    assert.equal(await question.getAttribute('data-interrupt'), interruptId);
    assert.deepEqual(await statuses(page), { prepare: 'done', gather: 'done', facts: 'done', quotes: 'done', review: 'interrupted', publish: 'pending' }, 'what the thread ran before shows as done');
    await question.locator('.answer').fill('"no"');
    await question.locator('.as-json input').check();
    await question.locator('button').click();
    await page.locator('#final').waitFor({ timeout: 5000 });
    assert.equal((await page.textContent('#final .text')) ?? '', 'no', 'the JSON answer went in; the router ended the run');
    assert.equal((await statuses(page))['publish'], 'unreached', 'a node the run did not reach is marked not run');

    // Another run, answered through the API while the page shows the question: the page's answer gets 409.
    await page.fill('#prompt', 'comets');
    await page.press('#prompt', 'Enter');
    const second = page.locator('.msg.run').last().locator('form.question');
    await second.waitFor({ timeout: 5000 });
    const id = (await second.getAttribute('data-interrupt')) ?? '';
    const elsewhere = await fetch(`${server.url}/resume`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ interrupt_id: id, response: 'held' }) });
    assert.equal(elsewhere.status, 200);
    await second.locator('.answer').fill('approved');
    await second.locator('.answer').press('Enter');
    const error = page.locator('.msg.run').last().locator('.error');
    await error.waitFor({ timeout: 5000 });
    assert.match((await error.textContent()) ?? '', /conflict_error: .*\(HTTP 409\)/);
    assert.equal(await second.locator('.answer').isEnabled(), true, 'the form stays usable after a refused answer');
    await page.close();
  });

  test('a subgraph\'s nodes show under it, a node skipped after an error says so, tool calls show in their node', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const consoleErrors: string[] = [];
    page.on('pageerror', (error) => void consoleErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.goto(`${nestedServer.url}/playground`);
    await page.locator('#graph-name', { hasText: 'nested_flow' }).waitFor();
    assert.deepEqual(Object.keys(await statuses(page)), ['flaky', 'team', 'team/writer', 'team/ask']);
    assert.match((await page.textContent('.node[data-node="flaky"]')) ?? '', /on error: skip/);
    await page.fill('#prompt', 'status of order 7');
    await page.press('#prompt', 'Enter');
    const question = page.locator('form.question');
    await question.waitFor({ timeout: 5000 });
    assert.match((await question.textContent()) ?? '', /team \/ ask asks.*Sign off\?.*Order 7 shipped\./s);
    assert.deepEqual(await statuses(page), { flaky: 'skipped', team: 'interrupted', 'team/writer': 'done', 'team/ask': 'interrupted' });
    const flaky = (await page.textContent('.node-card[data-node="flaky"]')) ?? '';
    assert.match(flaky, /skipped after an error.*ProviderError: flaky source down/s, 'the agent\'s own error event and the skip show in its card');
    assert.equal(await page.locator('.msg.run [role="alert"]').count(), 0, 'a skipped node\'s error is not the run\'s error');
    const tool = page.locator('.node-card[data-node="team/writer"] .tool-card[data-tool="lookup_order"]');
    assert.equal(await tool.getAttribute('data-status'), 'ok');
    assert.match((await tool.textContent()) ?? '', /✓ lookup_order \{"orderId":"7"\}.*shipped/s);
    await question.locator('.answer').fill('ok');
    await question.locator('.answer').press('Enter');
    await page.locator('#final').waitFor({ timeout: 5000 });
    assert.equal((await page.textContent('#final .text')) ?? '', 'signed: ok');
    assert.deepEqual(await statuses(page), { flaky: 'skipped', team: 'done', 'team/writer': 'done', 'team/ask': 'done' });
    assert.deepEqual(consoleErrors, []);
    await page.close();
  });
});
