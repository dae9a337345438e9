import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, describe, test } from 'node:test';
import { webSearch } from '../../../templates/research_assistant/tools.js';
import { toolContext } from '../tool-context.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let base: string;
let seen: Seen[] = [];
let reply: { status: number; body: unknown } = { status: 200, body: {} };

const ENV_KEYS = ['TAVILY_API_KEY', 'BRAVE_API_KEY', 'AGENTLIB_SEARCH_BASE_URL', 'AGENTLIB_SEARCH_PROVIDER'];
const savedEnv = new Map<string, string | undefined>();

before(async () => {
  for (const key of ENV_KEYS) savedEnv.set(key, process.env[key]);
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  seen = [];
  for (const key of ENV_KEYS) delete process.env[key];
});

after(() => {
  for (const [key, value] of savedEnv) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  server.close();
});

async function search(query: string, maxResults = 3): Promise<Record<string, unknown>> {
  return (await webSearch.invoke({ query, max_results: maxResults }, toolContext(undefined))).raw as Record<string, unknown>;
}

describe('web_search', () => {
  test('without a key it names the environment variables to set', async () => {
    for (const key of ENV_KEYS) delete process.env[key];
    await assert.rejects(search('anything'), /TAVILY_API_KEY.*BRAVE_API_KEY/);
  });

  test('calls Tavily: POST /search, bearer key, JSON body; maps results', async () => {
    process.env['TAVILY_API_KEY'] = 'tvly-test-key';
    process.env['AGENTLIB_SEARCH_BASE_URL'] = `${base}/`;
    reply = {
      status: 200,
      body: {
        query: 'cold brew ratio',
        answer: null,
        results: [
          { title: 'Cold brew guide', url: 'https://example.com/cold-brew', content: 'Use a 1:8 ratio &amp; steep overnight.', score: 0.91, published_date: '2024-05-01' },
          { title: 'Second', url: 'https://example.org/2', content: 'More.', score: 0.5 },
        ],
        response_time: 0.8,
      },
    };
    const result = await search('cold brew ratio', 2);
    assert.equal(seen.length, 1);
    const request = seen[0]!;
    assert.equal(request.method, 'POST');
    assert.equal(request.url, '/search');
    assert.equal(request.headers.authorization, 'Bearer tvly-test-key');
    assert.match(request.headers['content-type'] ?? '', /application\/json/);
    const body = JSON.parse(request.body) as Record<string, unknown>;
    assert.equal(body['query'], 'cold brew ratio');
    assert.equal(body['max_results'], 2);
    assert.equal(body['search_depth'], 'basic');
    assert.equal(body['api_key'], undefined, 'the key travels in the header only');
    assert.deepEqual(result, {
      provider: 'tavily',
      query: 'cold brew ratio',
      results: [
        { title: 'Cold brew guide', url: 'https://example.com/cold-brew', snippet: 'Use a 1:8 ratio & steep overnight.', published: '2024-05-01' },
        { title: 'Second', url: 'https://example.org/2', snippet: 'More.' },
      ],
    });
  });

  test('calls Brave: GET /res/v1/web/search?q=&count=, subscription-token header; maps web.results', async () => {
    process.env['BRAVE_API_KEY'] = 'brave-test-key';
    process.env['AGENTLIB_SEARCH_BASE_URL'] = base;
    reply = {
      status: 200,
      body: {
        type: 'search',
        query: { original: 'espresso grind size' },
        web: {
          type: 'search',
          results: [{ title: 'Dialing in <strong>espresso</strong>', url: 'https://example.com/espresso', description: 'Finer <strong>grind</strong> slows the shot.', age: 'March 3, 2024' }],
        },
      },
    };
    const result = await search('espresso grind size', 4);
    const request = seen[0]!;
    assert.equal(request.method, 'GET');
    const url = new URL(request.url, base);
    assert.equal(url.pathname, '/res/v1/web/search');
    assert.equal(url.searchParams.get('q'), 'espresso grind size');
    assert.equal(url.searchParams.get('count'), '4');
    assert.equal(request.headers['x-subscription-token'], 'brave-test-key');
    assert.match(request.headers.accept ?? '', /application\/json/);
    assert.deepEqual(result, {
      provider: 'brave',
      query: 'espresso grind size',
      results: [{ title: 'Dialing in espresso', url: 'https://example.com/espresso', snippet: 'Finer grind slows the shot.', published: 'March 3, 2024' }],
    });
  });

  test('prefers Tavily when both keys are set unless AGENTLIB_SEARCH_PROVIDER says brave', async () => {
    process.env['TAVILY_API_KEY'] = 'tvly-test-key';
    process.env['BRAVE_API_KEY'] = 'brave-test-key';
    process.env['AGENTLIB_SEARCH_BASE_URL'] = base;
    reply = { status: 200, body: { results: [], web: { results: [] } } };
    assert.equal((await search('q')).provider, 'tavily');
    process.env['AGENTLIB_SEARCH_PROVIDER'] = 'brave';
    assert.equal((await search('q')).provider, 'brave');
  });

  test('reports API errors with the status, never the key', async () => {
    process.env['TAVILY_API_KEY'] = 'tvly-secret-value';
    process.env['AGENTLIB_SEARCH_BASE_URL'] = base;
    reply = { status: 401, body: { detail: { error: 'Unauthorized: missing or invalid API key.' } } };
    await assert.rejects(search('q'), (error: Error) => {
      assert.match(error.message, /^Tavily search failed: HTTP 401 .*Unauthorized/);
      assert.doesNotMatch(error.message, /tvly-secret-value/);
      return true;
    });
  });
});
