import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { closeAllStorage } from '../../../lib/storage/connection-registry.js';
import { crashTrial, prepareCrashTrials, referenceState } from '../../support/graph-crash.js';
import { requires } from '../../support/requirements.js';
import { freshPostgresDatabase, type TestDatabase } from '../../support/services.js';

// 10 trials per store (bench/graph-crash.ts runs 50): each child is killed after 1..9 nodes (every
// point once, plus one at random), its thread continued in this process.
const KILL_POINTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 1 + Math.floor(Math.random() * 9)];

prepareCrashTrials();
const dir = await mkdtemp(join(tmpdir(), 'agentlib-crash-'));
const databases: TestDatabase[] = [];
after(async () => {
  await closeAllStorage();
  for (const db of databases) await db.drop();
  await rm(dir, { recursive: true, force: true });
});

async function trials(storeUrl: string, label: string): Promise<void> {
  const reference = await referenceState(join(dir, `${label}-reference.log`));
  const outcomes = await Promise.all(KILL_POINTS.map((k, i) => crashTrial(storeUrl, `${label}-${i}`, join(dir, `${label}-${i}.log`), k, reference)));
  for (const outcome of outcomes) assert.deepEqual(outcome.problems, [], `killed after ${outcome.killedAfter} nodes`);
  assert.ok(outcomes.some((o) => o.finishedBeforeKill.length > 0), 'some trials were killed after checkpoints were written');
}

describe('a graph killed with SIGKILL resumes without running a finished node twice', () => {
  test('SQLite', async () => {
    await trials(`sqlite://${join(dir, 'crash.db')}`, 'sqlite');
  });

  test('PostgreSQL', requires('postgres'), async () => {
    const db = await freshPostgresDatabase();
    databases.push(db);
    await trials(db.url, 'pg');
  });
});
