import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { execa } from 'execa';
import { binPath, ensureCliBuilt, repoRoot } from '../../support/cli-build.js';
import { keylessEnv } from '../../templates/offline-run.js';

const cassette = join(repoRoot, 'templates/customer_support/cassette.jsonl');

function agentlib(args: string[], cwd: string, ci = false) {
  return execa(process.execPath, [binPath, ...args], { cwd, reject: false, extendEnv: false, env: { ...keylessEnv(), CI: ci ? 'true' : '' } });
}

/** A suite in its own folder, on the customer_support template's agent and cassette. */
function suiteDir(asserts = '      - type: snapshot\n      - type: snapshot\n        value: tool-calls\n'): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentlib-eval-snap-'));
  dirs.push(dir);
  writeFileSync(
    join(dir, 'support.yaml'),
    `description: snapshots\nagent: ${JSON.stringify(join(repoRoot, 'templates/customer_support/agent.yaml'))}\ntests:\n  - description: return policy\n    input: How do I return my espresso machine?\n    assert:\n${asserts}`,
  );
  return dir;
}

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('agentlib eval run with snapshot assertions (built binary, --replay)', () => {
  before(() => ensureCliBuilt());

  test('the first run writes __snapshots__; a changed snapshot fails (exit 1); --update-snapshots rewrites it', async () => {
    const dir = suiteDir();
    const first = await agentlib(['eval', 'run', 'support.yaml', '--replay', cassette], dir);
    assert.equal(first.exitCode, 0, first.stderr);
    assert.match(first.stderr, /snapshots: 0 matched, 2 written, 0 updated, 0 failed/);
    const files = readdirSync(join(dir, '__snapshots__')).sort();
    assert.equal(files.length, 2);
    assert.match(files[0] ?? '', /^support\.return-policy-[0-9a-f]{8}\.json$/);
    const toolFile = join(dir, '__snapshots__', files[1] as string);
    assert.match(readFileSync(toolFile, 'utf8'), /"value": "search_kb \{.*\}\\nget_article \{.*\}"/);

    const again = await agentlib(['eval', 'run', 'support.yaml', '--replay', cassette], dir);
    assert.equal(again.exitCode, 0, again.stderr);
    assert.match(again.stderr, /snapshots: 2 matched, 0 written/);

    const outputFile = join(dir, '__snapshots__', files[0] as string);
    const record = JSON.parse(readFileSync(outputFile, 'utf8')) as { data: { value: string } };
    record.data.value = 'an older answer';
    writeFileSync(outputFile, JSON.stringify(record, null, 2));
    const changed = await agentlib(['eval', 'run', 'support.yaml', '--replay', cassette], dir);
    assert.equal(changed.exitCode, 1, changed.stderr);
    assert.match(changed.stdout, /snapshot: differs from the output/);
    assert.match(changed.stdout, /expected: an older answer/);
    assert.match(changed.stderr, /1 matched, 0 written, 0 updated, 1 failed/);

    const updated = await agentlib(['eval', 'run', 'support.yaml', '--replay', cassette, '--update-snapshots'], dir);
    assert.equal(updated.exitCode, 0, updated.stderr);
    assert.match(updated.stderr, /1 matched, 0 written, 1 updated, 0 failed/);
    assert.notEqual((JSON.parse(readFileSync(outputFile, 'utf8')) as { data: { value: string } }).data.value, 'an older answer');
  });

  test('under CI a missing snapshot fails the case and nothing is written', async () => {
    const dir = suiteDir();
    const run = await agentlib(['eval', 'run', 'support.yaml', '--replay', cassette, '--json'], dir, true);
    assert.equal(run.exitCode, 1, run.stderr);
    assert.match(run.stdout, /CI does not write new snapshots/);
    assert.deepEqual((JSON.parse(run.stdout) as { snapshots: { written: number; failed: number } }).snapshots, { matched: 0, written: 0, updated: 0, failed: 2, obsolete: [], removed: false });
    assert.throws(() => readdirSync(join(dir, '__snapshots__')));
  });

  test('obsolete snapshots are listed, and removed by --update-snapshots; --snapshots takes a store URL', async () => {
    const dir = suiteDir('      - type: snapshot\n');
    const db = `sqlite://${join(dir, 'snaps.db')}`;
    assert.equal((await agentlib(['eval', 'run', 'support.yaml', '--replay', cassette, '--snapshots', db], dir)).exitCode, 0);
    const other = suiteDir('      - type: snapshot\n');
    writeFileSync(join(other, 'support.yaml'), readFileSync(join(other, 'support.yaml'), 'utf8').replace('return policy', 'renamed case'));
    const renamed = await agentlib(['eval', 'run', join(other, 'support.yaml'), '--replay', cassette, '--snapshots', db], dir);
    assert.equal(renamed.exitCode, 0, renamed.stderr);
    assert.match(renamed.stderr, /1 written/);
    assert.match(renamed.stderr, /1 obsolete snapshot\(s\) no case uses \(--update-snapshots removes them\): support\.return-policy-/);
    const cleaned = await agentlib(['eval', 'run', join(other, 'support.yaml'), '--replay', cassette, '--snapshots', db, '-u'], dir);
    assert.match(cleaned.stderr, /removed 1 obsolete snapshot\(s\)/);
    const clean = await agentlib(['eval', 'run', join(other, 'support.yaml'), '--replay', cassette, '--snapshots', db], dir);
    assert.doesNotMatch(clean.stderr, /obsolete/);
  });

  test('snapshot flags on a suite without snapshot assertions, or a bad store URL, exit 2', async () => {
    const plain = await agentlib(['eval', 'run', 'templates/customer_support/eval.yaml', '--replay', cassette, '--update-snapshots'], repoRoot);
    assert.equal(plain.exitCode, 2);
    assert.match(plain.stderr, /--update-snapshots: the suite has no snapshot assertion/);
    const dir = suiteDir();
    const bad = await agentlib(['eval', 'run', 'support.yaml', '--replay', cassette, '--snapshots', 'lancedb://x'], dir);
    assert.equal(bad.exitCode, 2);
    assert.match(bad.stderr, /--snapshots: .*eval snapshot store/);
  });
});
