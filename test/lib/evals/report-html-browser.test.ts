import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { Agent } from '../../../lib/agent/agent.js';
import { EvalSuite } from '../../../lib/evals/eval-suite.js';
import type { EvalCase } from '../../../lib/evals/types.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { testRuntime } from '../../support/agent-harness.js';
import { launchChromium } from '../../support/chromium.js';
import { repoRoot } from '../../support/cli-build.js';
import { requires } from '../../support/requirements.js';

function contains(id: string, input: string, value: string): EvalCase {
  return { id, input, vars: {}, tags: ['demo'], weight: 1, metadata: {}, assert: [{ type: 'contains', negate: false, value, weight: 1 }] };
}

describe('the HTML eval report in headless Chromium', requires('chromium'), () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('renders the totals, charts and failed cases first, with no request beyond the file itself', async () => {
    const agent = new Agent({ provider: new ScriptedProvider({ respond: (request) => `echo: ${request.messages.at(-1)?.content ?? ''} <script>alert(1)</script>` }), runtime: testRuntime() });
    const report = await new EvalSuite(agent, [contains('finds apples', 'apple', 'apple'), contains('finds cherries', 'banana', 'cherry'), contains('finds kiwis', 'kiwi', 'kiwi')]).run();
    const path = join(mkdtempSync(join(tmpdir(), 'agentlib-eval-html-')), 'report.html');
    await report.toHtml(path);

    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const requested: string[] = [];
    page.on('request', (request) => void requested.push(request.url()));
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs++;
      void dialog.dismiss();
    });
    await page.goto(pathToFileURL(path).href);
    assert.equal(await page.title(), 'eval — eval report');
    const cards = (await page.locator('.cards').textContent()) ?? '';
    assert.match(cards, /accuracy66\.7%/);
    assert.match(cards, /failed1/);
    assert.equal(await page.locator('svg[aria-label="verdicts"] rect').count() >= 2, true);
    const firstRow = (await page.locator('#cases > tbody > tr').nth(1).textContent()) ?? '';
    assert.match(firstRow, /^fail.*finds cherries/, 'failed cases come first');
    await page.locator('details summary', { hasText: 'finds cherries' }).click();
    assert.match((await page.locator('details[open] pre').last().textContent()) ?? '', /<script>alert\(1\)<\/script>/, 'output shown as text, not run');

    const dir = join(repoRoot, 'test-artifacts', 'evals');
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: join(dir, 'report.png'), fullPage: true });

    assert.deepEqual(requested, [pathToFileURL(path).href], 'the page requested nothing but itself');
    assert.equal(dialogs, 0);
    assert.deepEqual(consoleErrors, []);
    await page.close();
  });
});
