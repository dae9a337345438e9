// The crash trial of issue 15 at length: a 10-node graph is killed with SIGKILL after a random
// number of nodes (a child process on the built library), then its thread is continued here; every
// trial must resume, no node recorded in the last checkpoint may run twice (side effects counted in
// a file), and the final state must equal an uninterrupted run's. 50 trials per store: SQLite, and
// PostgreSQL when AGENTLIB_TEST_POSTGRES_URL names a server (each run on a fresh database).
//   npm run bench:graph-crash    (node --import tsx bench/graph-crash.ts [--trials 50] [--parallel 4])
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { closeAllStorage } from '../lib/storage/connection-registry.js';
import { crashTrial, prepareCrashTrials, referenceState, type CrashTrial } from '../test/support/graph-crash.js';
import { freshPostgresDatabase } from '../test/support/services.js';

const { values: args } = parseArgs({ options: { trials: { type: 'string', default: '50' }, parallel: { type: 'string', default: '4' } } });
const TRIALS = Number(args.trials);
const PARALLEL = Number(args.parallel);
prepareCrashTrials();
const dir = mkdtempSync(join(tmpdir(), 'agentlib-crash-bench-'));

async function trials(storeUrl: string, label: string): Promise<boolean> {
  const reference = await referenceState(join(dir, `${label}-reference.log`));
  const outcomes: CrashTrial[] = [];
  for (let i = 0; i < TRIALS; i += PARALLEL) {
    const batch = Array.from({ length: Math.min(PARALLEL, TRIALS - i) }, (_, j) => i + j);
    outcomes.push(...(await Promise.all(batch.map((n) => crashTrial(storeUrl, `${label}-${n}`, join(dir, `${label}-${n}.log`), 1 + Math.floor(Math.random() * 9), reference)))));
  }
  const failed = outcomes.filter((o) => !o.ok);
  const reran = outcomes.filter((o) => o.reran.length > 0).length;
  console.log(`${label}: ${outcomes.length - failed.length}/${outcomes.length} trials resumed correctly; ${reran} re-ran the one node in flight at the kill (not yet checkpointed)`);
  for (const f of failed) console.log(`  killed after ${f.killedAfter}: ${f.problems.join('; ')}`);
  return failed.length === 0;
}

let ok = await trials(`sqlite://${join(dir, 'crash.db')}`, 'sqlite');
if (process.env.AGENTLIB_TEST_POSTGRES_URL) {
  const db = await freshPostgresDatabase();
  try {
    ok = (await trials(db.url, 'postgres')) && ok;
  } finally {
    await closeAllStorage();
    await db.drop();
  }
} else {
  console.log('postgres: skipped (set AGENTLIB_TEST_POSTGRES_URL to a server to run it)');
}
await closeAllStorage();
rmSync(dir, { recursive: true, force: true });
if (!ok) process.exitCode = 1;
