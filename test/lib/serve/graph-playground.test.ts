import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { AgentGraph } from '../../../lib/graph/agent-graph.js';
import { InMemoryCheckpointStore } from '../../../lib/graph/checkpoint/memory-store.js';
import { createGraphServeApp, type GraphServeAppOptions } from '../../../lib/serve/index.js';
import type { ErrorBody } from './helpers.js';

// The playground page of a served graph through app.request(): served (with its CSP), redirected
// to from /, off with playground: false, reachable without the bearer token (it asks for one).

const TOKEN = 'graph-playground-token-0123456789';

function served(options: Partial<GraphServeAppOptions> = {}): ReturnType<typeof createGraphServeApp> {
  const graph = new AgentGraph({ name: 'tiny' }).addNode('only', () => 'done').setEntry('only');
  return createGraphServeApp({ graph, checkpointStore: new InMemoryCheckpointStore(), keepAliveMs: 0, ...options });
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

describe('served graph: GET /playground', () => {
  test('one self-contained HTML page whose inline script and style are exactly the ones its CSP pins', async () => {
    const res = await served().app.request('/playground');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const html = await res.text();
    assert.match(html, /<title>agentlib graph playground<\/title>/);
    assert.match(html, /id="nodes"/, 'the graph panel');
    assert.doesNotMatch(html, /<script[^>]+src=/i);
    assert.doesNotMatch(html, /<link[^>]+(stylesheet|preload|font)/i);
    assert.doesNotMatch(html, /@import|url\(|https?:\/\//i, 'no external URL anywhere in the page');
    assert.doesNotMatch(html, /innerHTML|outerHTML|insertAdjacentHTML|document\.write/, 'the script never parses text as HTML');
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /connect-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';
    const style = /<style>([\s\S]*)<\/style>/.exec(html)?.[1] ?? '';
    assert.ok(script.includes('"/resume"') || script.includes('"resume"'), 'the script answers interrupts through /resume');
    assert.ok(csp.includes(`script-src ${sha256(script)}`), 'the CSP pins the inline script');
    assert.ok(csp.includes(`style-src ${sha256(style)}`), 'the CSP pins the inline style');
  });

  test('GET / redirects to the page; POST /playground is 405', async () => {
    const app = served().app;
    const root = await app.request('/');
    assert.equal(root.status, 302);
    assert.equal(root.headers.get('location'), '/playground');
    const post = await app.request('/playground', { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET');
  });

  test('playground: false (--no-playground): no page, / is 404 too', async () => {
    const app = served({ playground: false }).app;
    const page = await app.request('/playground');
    assert.equal(page.status, 404);
    assert.equal(((await page.json()) as ErrorBody).error.type, 'not_found_error');
    assert.equal((await app.request('/')).status, 404);
    assert.equal((await app.request('/schema')).status, 200, 'the API is still there');
  });

  test('with a bearer token the page loads without it (it asks for one); the API still needs it', async () => {
    const app = served({ authToken: TOKEN }).app;
    assert.equal((await app.request('/playground')).status, 200);
    assert.equal((await app.request('/schema')).status, 401);
    assert.equal((await app.request('/schema', { headers: { authorization: `Bearer ${TOKEN}` } })).status, 200);
  });
});
