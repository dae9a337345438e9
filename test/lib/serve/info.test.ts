import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { lookupTool, refundTool, scriptedAgent, serve } from './helpers.js';

describe('GET /health, /schema, /openapi.json, /playground', () => {
  const served = serve(scriptedAgent({ replies: ['ok'] }, { tools: [lookupTool(), refundTool()], model: 'gpt-4o-mini', responseFormat: z.object({ answer: z.string() }) }));

  test('/health: status, version, agent, provider, model, tools', async () => {
    const res = await served.app.request('/health');
    assert.equal(res.status, 200);
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(body['status'], 'ok');
    assert.match(String(body['version']), /^\d+\.\d+\.\d+/);
    assert.equal(body['agent'], 'test_agent');
    assert.equal(body['provider'], 'scripted');
    assert.equal(body['model'], 'gpt-4o-mini');
    assert.deepEqual(body['tools'], ['lookup_order', 'refund_order']);
  });

  test('/schema: name, input schema, tools with JSON schemas and approval flags, output schema', async () => {
    const body = (await (await served.app.request('/schema')).json()) as {
      name: string;
      input_schema: { properties: Record<string, unknown> };
      tools: { name: string; description: string; parameters: { properties: Record<string, unknown> }; requires_approval: boolean }[];
      output_schema: { properties: Record<string, unknown> };
    };
    assert.equal(body.name, 'test_agent');
    assert.deepEqual(Object.keys(body.input_schema.properties).sort(), ['approve', 'messages', 'metadata', 'prompt', 'response_format', 'session_id']);
    assert.deepEqual(body.tools.map((t) => [t.name, t.requires_approval]), [['lookup_order', false], ['refund_order', true]]);
    assert.deepEqual(Object.keys(body.tools[0]?.parameters.properties ?? {}), ['orderId']);
    assert.deepEqual(Object.keys(body.output_schema.properties), ['answer']);
  });

  test('/openapi.json: OpenAPI 3.1 with every route and the error schema', async () => {
    const doc = (await (await served.app.request('/openapi.json')).json()) as { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown> }>>; components: { schemas: Record<string, unknown> } };
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(Object.keys(doc.paths).sort(), ['/health', '/invoke', '/openapi.json', '/playground', '/schema', '/stream', '/v1/chat/completions']);
    for (const code of ['200', '400', '408', '413', '429', '502', '504']) assert.ok(code in (doc.paths['/invoke']?.['post']?.responses ?? {}), `documents ${code}`);
    assert.ok('Error' in doc.components.schemas && 'RunRequest' in doc.components.schemas && 'InvokeResponse' in doc.components.schemas);
  });

  test('/playground: one HTML page with no external scripts, styles or fonts, pinned by its CSP', async () => {
    const res = await served.app.request('/playground');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    const html = await res.text();
    assert.doesNotMatch(html, /<script[^>]+src=/i);
    assert.doesNotMatch(html, /<link[^>]+(stylesheet|preload|font)/i);
    assert.doesNotMatch(html, /@import|url\(|https?:\/\//i, 'no external URL anywhere in the page');
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /connect-src 'self'/);
    assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/=]+'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal((await served.app.request('/')).headers.get('location'), '/playground');
  });

  test('--no-playground: no page, no route in the OpenAPI document', async () => {
    const bare = serve(scriptedAgent({ replies: ['ok'] }), { playground: false });
    assert.equal((await bare.app.request('/playground')).status, 404);
    const doc = (await (await bare.app.request('/openapi.json')).json()) as { paths: Record<string, unknown> };
    assert.ok(!('/playground' in doc.paths));
  });
});
