import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureCliBuilt } from '../support/cli-build.js';
import { requires } from '../support/requirements.js';
import { freshPostgresDatabase, type TestDatabase } from '../support/services.js';
import { installAgentlibInto, postJson, startServe, stopServers } from './serve-helpers.js';

// Two `agentlib serve graph.yaml` processes on one checkpoint store receive POST /resume for the
// same interrupt at the same moment: the interrupt's node must run once (its side effect is
// appended to a shared file), one request gets 200 and the other 409 conflict_error.

const dir = await mkdtemp(join(tmpdir(), 'agentlib-serve-claims-'));
const effects = join(dir, 'side-effects.log');
const databases: TestDatabase[] = [];

before(async () => {
  ensureCliBuilt();
  await installAgentlibInto(dir);
  await writeFile(
    join(dir, 'nodes.mjs'),
    `import { appendFileSync } from 'node:fs';
import { interrupt } from 'agentlib/graph';
export async function* pay() {
  const answer = yield interrupt('Send the payment?');
  // The payment takes a while: a second resume arriving now must not pay again.
  await new Promise((resolve) => setTimeout(resolve, 300));
  appendFileSync(process.env.GRAPH_SIDE_EFFECTS, 'paid ' + answer + ' pid=' + process.pid + '\\n');
  return 'paid ' + answer;
}
`,
  );
  await writeFile(join(dir, 'pay.graph.yaml'), `kind: graph\nname: pay\nentry: pay\nnodes:\n  pay: { function: ./nodes.mjs#pay }\n`);
});
after(async () => {
  for (const db of databases) await db.drop();
  await rm(dir, { recursive: true, force: true });
});

interface Body {
  status?: string;
  interrupt_id?: string;
  error?: { type: string; message: string };
}
const post = (url: string, path: string, body: unknown): Promise<{ status: number; body: Body }> => postJson<Body>(url, path, body);

async function race(checkpoint: string, label: string): Promise<void> {
  await writeFile(effects, '');
  const env = { GRAPH_SIDE_EFFECTS: effects, CI: 'true', NO_COLOR: '1' };
  const a = await startServe(['pay.graph.yaml', '--quiet', '--no-playground', '--checkpoint', checkpoint], { cwd: dir, env });
  const b = await startServe(['pay.graph.yaml', '--quiet', '--no-playground', '--checkpoint', checkpoint], { cwd: dir, env });
  try {
    const started = await post(a.url, '/invoke', { prompt: 'go', thread_id: `race-${label}` });
    assert.equal(started.status, 200, a.stderr());
    assert.equal(started.body.status, 'interrupted');
    const both = await Promise.all([a, b].map((server) => post(server.url, '/resume', { interrupt_id: started.body.interrupt_id, response: 'yes' })));
    const paid = (await readFile(effects, 'utf8')).trim().split('\n').filter(Boolean);
    assert.equal(paid.length, 1, `the payment ran ${paid.length} times:\n${paid.join('\n')}`);
    assert.deepEqual(both.map((r) => r.status).sort(), [200, 409], JSON.stringify(both));
    const refused = both.find((r) => r.status === 409);
    assert.equal(refused?.body.error?.type, 'conflict_error');
    assert.equal(both.find((r) => r.status === 200)?.body.status, 'completed');
  } finally {
    await stopServers(a, b);
  }
}

describe('two agentlib serve graph.yaml processes answering one interrupt at the same moment', () => {
  test('SQLite file: the interrupted node runs once; one 200, one 409', { timeout: 60_000 }, async () => {
    await race(`sqlite://${join(dir, 'race.db')}`, 'sqlite');
  });

  test('PostgreSQL: the interrupted node runs once; one 200, one 409', { ...requires('postgres'), timeout: 60_000 }, async () => {
    const db = await freshPostgresDatabase();
    databases.push(db);
    await race(db.url, 'postgres');
  });
});
