// End to end, offline: `agentlib rag index` of the rag_chatbot template's sample documents, then
// `agentlib run` of an agent whose YAML has `retrieval:` over that index. The run is first recorded
// (--record) against a scripted OpenAI-compatible server on loopback, whose final answer cites the
// first source the real retrieval tool returned; then replayed (--replay) with no server and no key:
// replay matches every request exactly, so it also checks the tool returned the same passages.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { binPath, ensureCliBuilt, repoRoot } from '../../support/cli-build.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlib-rag-e2e-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const AGENT = `name: handbook
provider: openai
model: gpt-4o-mini
system_prompt: Answer from the knowledge base only and cite sources in square brackets.
retrieval:
  store: sqlite://kb.db
  top_k: 2
`;

function agentlib(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return agentlibIn(dir, args, env);
}

function agentlibIn(cwd: string, args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [binPath, ...args], {
      cwd,
      env: { PATH: process.env['PATH'] ?? '', HOME: dir, CI: '1', NO_COLOR: '1', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** OpenAI streaming chunks of one reply: a tool call, or text. */
function sse(model: string, reply: { tool: string; args: Record<string, unknown> } | { text: string }): string {
  const chunk = (delta: Record<string, unknown>, finish: string | null): string =>
    `data: ${JSON.stringify({ id: 'chatcmpl-scripted', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }], usage: null })}\n\n`;
  let body = '';
  if ('text' in reply) {
    body += chunk({ role: 'assistant', content: '' }, null) + chunk({ content: reply.text }, null) + chunk({}, 'stop');
  } else {
    const args = JSON.stringify(reply.args);
    body += chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_scripted_1', type: 'function', function: { name: reply.tool, arguments: '' } }] }, null);
    for (let at = 0; at < args.length; at += 8) body += chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(at, at + 8) } }] }, null);
    body += chunk({}, 'tool_calls');
  }
  body += `data: ${JSON.stringify({ id: 'chatcmpl-scripted', object: 'chat.completion.chunk', created: 0, model, choices: [], usage: { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 } })}\n\n`;
  return `${body}data: [DONE]\n\n`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/**
 * A scripted model: first it calls the retrieval tool; then it answers with the first passage's
 * source, read from the tool result in the request (so the citation comes from the real index).
 */
async function scriptedModel(): Promise<{ url: string; close: () => Promise<void>; requests: number }> {
  const state = { requests: 0 };
  const server = createServer((req, res) => {
    void readBody(req).then((text) => {
      state.requests += 1;
      const request = JSON.parse(text) as { model: string; messages: { role: string; content: string }[] };
      const tool = request.messages.find((m) => m.role === 'tool');
      let reply: Parameters<typeof sse>[1];
      if (tool === undefined) reply = { tool: 'search_knowledge_base', args: { query: 'parental leave weeks' } };
      else {
        const output = JSON.parse(tool.content) as { results: { source: string; text: string }[] };
        const weeks = /(\d+) weeks/.exec(output.results[0]?.text ?? '')?.[1] ?? '?';
        reply = { text: `Birth parents get ${weeks} weeks of paid parental leave [${output.results[0]?.source ?? 'none'}].` };
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sse(request.model, reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    get requests() {
      return state.requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('agentlib rag index → agentlib run with retrieval: (built binary, offline)', () => {
  before(() => {
    ensureCliBuilt();
    cpSync(join(repoRoot, 'templates', 'rag_chatbot', 'fixtures', 'docs'), join(dir, 'docs'), { recursive: true });
    writeFileSync(join(dir, 'agent.yaml'), AGENT);
  });

  test('the answer cites the indexed source, recorded against a scripted model and replayed from the cassette', async () => {
    const indexed = await agentlib(['rag', 'index', 'docs', '--store', 'sqlite://kb.db']);
    assert.equal(indexed.status, 0, indexed.stderr);

    const model = await scriptedModel();
    let recorded;
    try {
      recorded = await agentlib(['run', 'agent.yaml', 'How much parental leave do I get?', '--record', 'cassette.jsonl', '--no-trace'], { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'sk-scripted-not-a-key' });
    } finally {
      await model.close();
    }
    assert.equal(recorded.status, 0, recorded.stderr);
    assert.equal(model.requests, 2);
    assert.match(recorded.stdout, /Birth parents get \d+ weeks of paid parental leave \[docs\/time-off-policy\.md\]\./);
    const cassette = readFileSync(join(dir, 'cassette.jsonl'), 'utf8');
    assert.match(cassette, /docs\/time-off-policy\.md/, 'the tool result in the recorded request holds the source');
    assert.doesNotMatch(cassette, /sk-scripted-not-a-key/);

    const replayed = await agentlib(['run', 'agent.yaml', 'How much parental leave do I get?', '--replay', 'cassette.jsonl', '--no-trace']);
    assert.equal(replayed.status, 0, replayed.stderr);
    assert.equal(replayed.stdout, recorded.stdout);
  });

  test('the rag_chatbot template itself: rag index of its docs into a fresh index.db, then its agent on its cassette cites the indexed source', async () => {
    const project = join(dir, 'rag_chatbot');
    cpSync(join(repoRoot, 'templates', 'rag_chatbot'), project, { recursive: true, filter: (path) => !/index\.db(?:-wal|-shm)?$/.test(path) });
    // the template's tools.ts imports ../_shared (init rewrites that; here the folder sits beside it)
    cpSync(join(repoRoot, 'templates', '_shared'), join(dir, '_shared'), { recursive: true });
    // and 'agentlib', which resolves to this checkout, as after `npm install <checkout>`
    mkdirSync(join(dir, 'node_modules'), { recursive: true });
    symlinkSync(repoRoot, join(dir, 'node_modules', 'agentlib'), 'dir');
    const indexed = await agentlibIn(project, ['rag', 'index', 'fixtures/docs', '--store', 'sqlite://index.db']);
    assert.equal(indexed.status, 0, indexed.stderr);
    const run = await agentlibIn(project, ['run', 'agent.yaml', 'How much parental leave do I get?', '--replay', 'cassette.jsonl', '--no-trace']);
    // replay matches every request exactly: the passages of the new index are the recorded ones
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /search_documents/);
    assert.match(run.stdout, /20 weeks of fully paid parental leave.*\[fixtures\/docs\/time-off-policy\.md\]/);
  });
});
