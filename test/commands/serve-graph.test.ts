import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureCliBuilt } from '../support/cli-build.js';
import { requires } from '../support/requirements.js';
import { freshPostgresDatabase, type TestDatabase } from '../support/services.js';
import { agentlib } from './run-helpers.js';
import { installAgentlibInto, postJson, startServe, stopServers } from './serve-helpers.js';

// `agentlib serve graph.yaml`: two server processes on one checkpoint store (SQLite file, and a
// PostgreSQL database): a run interrupted through the first is resumed through the second, and no
// finished node runs again (each node appends its name to a side-effect file, shared by both).

const dir = await mkdtemp(join(tmpdir(), 'agentlib-serve-graph-'));
const effects = join(dir, 'side-effects.log');
const databases: TestDatabase[] = [];

before(async () => {
  ensureCliBuilt();
  await installAgentlibInto(dir);
  await writeFile(
    join(dir, 'nodes.mjs'),
    `import { appendFileSync } from 'node:fs';
import { interrupt } from 'agentlib/graph';
const mark = (name) => appendFileSync(process.env.GRAPH_SIDE_EFFECTS, name + ' pid=' + process.pid + '\\n');
export function fetchFacts(state) { mark('fetch'); return { data: { facts: 'facts about ' + state.messages.at(-1).content } }; }
export function draft(state) { mark('draft'); return 'draft from ' + state.data.facts; }
export async function* review(state) {
  mark('review-enter');
  const answer = yield interrupt('Publish this draft?', { draft: state.data.__last_output__ });
  mark('review-answered');
  return answer === 'yes' ? 'published: ' + state.data.__last_output__ : 'held back';
}
`,
  );
  await writeFile(
    join(dir, 'flow.graph.yaml'),
    `kind: graph\nname: flow\nentry: fetch\nnodes:\n  fetch: { function: ./nodes.mjs#fetchFacts, next: draft }\n  draft: { function: ./nodes.mjs#draft, next: review }\n  review: { function: ./nodes.mjs#review }\n`,
  );
});
after(async () => {
  for (const db of databases) await db.drop();
  await rm(dir, { recursive: true, force: true });
});

interface Body {
  status: string;
  content: string;
  interrupt_id: string | null;
  interrupts: { prompt: string; payload: unknown }[];
  history: string[];
  error?: { type: string };
}

const post = (url: string, path: string, body: unknown): Promise<{ status: number; body: Body }> => postJson<Body>(url, path, body);

async function twoServers(checkpoint: string, label: string): Promise<void> {
  await writeFile(effects, '');
  const env = { GRAPH_SIDE_EFFECTS: effects, CI: 'true', NO_COLOR: '1' };
  const a = await startServe(['flow.graph.yaml', '--quiet', '--no-playground', '--checkpoint', checkpoint], { cwd: dir, env });
  const b = await startServe(['flow.graph.yaml', '--quiet', '--no-playground', '--checkpoint', checkpoint], { cwd: dir, env });
  try {
    assert.match(a.stdout(), /Serving graph "flow" \(fetch, draft, review\)/);
    const started = await post(a.url, '/invoke', { prompt: 'tides', thread_id: `two-servers-${label}` });
    assert.equal(started.status, 200, a.stderr());
    assert.equal(started.body.status, 'interrupted');
    assert.deepEqual(started.body.interrupts.map((i) => [i.prompt, i.payload]), [['Publish this draft?', { draft: 'draft from facts about tides' }]]);

    const resumed = await post(b.url, '/resume', { interrupt_id: started.body.interrupt_id, response: 'yes' });
    assert.equal(resumed.status, 200, b.stderr());
    assert.equal(resumed.body.status, 'completed');
    assert.equal(resumed.body.content, 'published: draft from facts about tides');
    assert.deepEqual(resumed.body.history, ['fetch', 'draft', 'review']);

    const lines = (await readFile(effects, 'utf8')).trim().split('\n');
    const pidA = /pid=(\d+)/.exec(lines[0] ?? '')?.[1];
    assert.deepEqual(lines.map((l) => l.split(' ')[0]), ['fetch', 'draft', 'review-enter', 'review-enter', 'review-answered'], 'fetch and draft ran once; only the interrupted node was entered again');
    assert.ok(lines.slice(0, 3).every((l) => l.endsWith(`pid=${pidA ?? ''}`)), 'server A ran up to the interrupt');
    assert.ok(lines.slice(3).every((l) => !l.endsWith(`pid=${pidA ?? ''}`)), 'server B finished it');

    const again = await post(a.url, '/resume', { interrupt_id: started.body.interrupt_id, response: 'no' });
    assert.equal(again.status, 409, 'server A sees the answer server B gave');
    assert.equal(again.body.error?.type, 'conflict_error');
  } finally {
    await stopServers(a, b);
  }
}

describe('two agentlib serve graph.yaml processes on one checkpoint store', () => {
  test('SQLite file: interrupted through A, resumed through B, no finished node runs again', { timeout: 60_000 }, async () => {
    await twoServers(`sqlite://${join(dir, 'shared.db')}`, 'sqlite');
  });

  test('PostgreSQL: interrupted through A, resumed through B, no finished node runs again', { ...requires('postgres'), timeout: 60_000 }, async () => {
    const db = await freshPostgresDatabase();
    databases.push(db);
    await twoServers(db.url, 'pg');
  });

  test('the playground page is served (no "not yet" notice); --no-playground turns it off', { timeout: 60_000 }, async () => {
    const env = { GRAPH_SIDE_EFFECTS: effects, CI: 'true', NO_COLOR: '1' };
    const on = await startServe(['flow.graph.yaml', '--quiet', '--checkpoint', 'memory://'], { cwd: dir, env });
    const off = await startServe(['flow.graph.yaml', '--quiet', '--no-playground', '--checkpoint', 'memory://'], { cwd: dir, env });
    try {
      assert.match(on.stdout(), /GET {2}http:\/\/127\.0\.0\.1:\d+\/playground/);
      const page = await fetch(`${on.url}/playground`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /text\/html/);
      assert.match(await page.text(), /agentlib graph playground/);
      assert.doesNotMatch(on.stderr(), /playground/, 'no notice on stderr');
      assert.doesNotMatch(off.stdout(), /playground/);
      assert.equal((await fetch(`${off.url}/playground`)).status, 404);
    } finally {
      on.child.kill('SIGTERM');
      off.child.kill('SIGTERM');
      assert.equal((await on.child).exitCode, 0);
      assert.equal((await off.child).exitCode, 0);
    }
  });

  test('agent-only flags are refused for a graph file, and --checkpoint for an agent file', async () => {
    const graph = await agentlib(['serve', 'flow.graph.yaml', '--model', 'gpt-4o', '--port', '0'], { cwd: dir, env: { CI: 'true' } });
    assert.equal(graph.exitCode, 2);
    assert.match(graph.stderr, /--model applies to an agent file/);
  });
});
