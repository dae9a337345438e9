import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { execa } from 'execa';
import { listTemplates } from '../../../lib/config/templates.js';
import { openHistoryStore } from '../../../lib/evals/history/open-history-store.js';
import { binPath, ensureCliBuilt, repoRoot } from '../../support/cli-build.js';
import { keylessEnv } from '../../templates/offline-run.js';

function agentlib(args: string[], cwd = repoRoot) {
  return execa(process.execPath, [binPath, ...args], { cwd, reject: false, extendEnv: false, env: keylessEnv() });
}

/** xmllint (Debian libxml2-utils) is needed to validate JUnit; under CI its absence fails the test. */
function xmllintMissing(): string | undefined {
  try {
    execFileSync('xmllint', ['--version'], { stdio: 'ignore' });
    return undefined;
  } catch {
    const reason = 'xmllint is not installed (Debian libxml2-utils)';
    if (!['', '0', 'false', undefined].includes(process.env['CI'])) throw new Error(`this test needs xmllint, and CI is set: ${reason}`);
    return reason;
  }
}

describe('agentlib eval through the built binary, offline with --replay', () => {
  before(() => ensureCliBuilt());
  const out = mkdtempSync(join(tmpdir(), 'agentlib-eval-cli-'));

  for (const template of listTemplates()) {
    test(`templates/${template}/eval.yaml passes from its cassettes (exit 0)`, async () => {
      const cwd = join(repoRoot, 'templates', template);
      // per-case cassettes (eval-cassettes/), else the template's one cassette
      const perCase = existsSync(join(cwd, 'eval-cassettes'));
      const run = await agentlib(['eval', 'run', 'eval.yaml', '--replay', perCase ? 'eval-cassettes' : 'cassette.jsonl', '--json'], cwd);
      assert.equal(run.exitCode, 0, `${run.stdout}\n${run.stderr}`);
      const doc = JSON.parse(run.stdout) as { version: number; exitCode: number; report: { type: string; version: number; summary: { counts: { pass: number; fail: number; error: number } }; cases: { verdict: string }[] } };
      assert.equal(doc.report.type, 'eval-report');
      assert.equal(doc.report.version, 1);
      assert.ok(doc.report.summary.counts.pass >= (perCase ? 3 : 1), 'a template suite with per-case cassettes has at least 3 cases');
      assert.deepEqual([doc.report.summary.counts.fail, doc.report.summary.counts.error], [0, 0]);
    });
  }

  test('a failing suite exits 1 and writes JSON, JUnit (valid against the XSD), Markdown and HTML', async () => {
    const junit = join(out, 'fail.junit.xml');
    const run = await agentlib(['eval', 'run', 'fixtures/evals/failing.yaml', '--replay', 'templates/customer_support/cassette.jsonl', '-o', join(out, 'fail.json'), '-o', junit, '-o', join(out, 'fail.md'), '-o', join(out, 'fail.html')]);
    assert.equal(run.exitCode, 1, run.stderr);
    assert.match(run.stdout, /must fail: 0% accuracy — 0 passed, 1 failed, 0 errors, 1 skipped/);
    assert.match(run.stdout, /tool-used: never called create_ticket/);
    assert.match(run.stderr, /\[2\/2\] fail {2}return policy comes from the knowledge base/, 'plain progress lines under CI');
    const xml = readFileSync(junit, 'utf8');
    assert.match(xml, /<failure message="tool-used: never called create_ticket; contains: output lacks &quot;60 days&quot;" type="tool-used">/);
    assert.match(xml, /<skipped message="skip: true in the suite"\/>/);
    assert.match(readFileSync(join(out, 'fail.md'), 'utf8'), /## ❌ must fail/);
    const skip = xmllintMissing();
    if (skip === undefined) {
      const lint = await execa('xmllint', ['--noout', '--schema', join(repoRoot, 'fixtures/evals/junit.xsd'), junit], { reject: false });
      assert.equal(lint.exitCode, 0, lint.stderr);
      // The XSD really checks: a testcase with both a failure and an error is refused.
      const bad = join(out, 'bad.junit.xml');
      execFileSync('sh', ['-c', `sed 's#</failure>#</failure><error message="x">x</error>#' "${junit}" > "${bad}"`]);
      assert.notEqual((await execa('xmllint', ['--noout', '--schema', join(repoRoot, 'fixtures/evals/junit.xsd'), bad], { reject: false })).exitCode, 0);
    }
  });

  test('--history appends the run to an eval history store (SQLite through the storage module); a bad URL exits 2', async () => {
    const db = join(out, 'history.db');
    for (let i = 0; i < 2; i++) {
      const run = await agentlib(['eval', 'run', 'templates/customer_support/eval.yaml', '--replay', 'templates/customer_support/eval-cassettes', '--history', `sqlite://${db}`]);
      assert.equal(run.exitCode, 0, run.stderr);
    }
    const store = openHistoryStore(`sqlite://${db}`);
    try {
      assert.deepEqual((await store.list('customer_support')).map((e) => [e.pass, e.accuracy]), [[3, 1], [3, 1]]);
    } finally {
      store.close();
    }
    const bad = await agentlib(['eval', 'run', 'templates/customer_support/eval.yaml', '--replay', 'templates/customer_support/eval-cassettes', '--history', 'redis://127.0.0.1:1']);
    assert.equal(bad.exitCode, 2, bad.stderr);
    assert.match(bad.stderr, /--history: .*memory:\/\/, sqlite:\/\//);
  });

  test('--fail-under turns the same results into a pass when accuracy reaches it', async () => {
    const run = await agentlib(['eval', 'run', 'fixtures/evals/failing.yaml', '--replay', 'templates/customer_support/cassette.jsonl', '--fail-under', '0']);
    assert.equal(run.exitCode, 0, run.stderr);
    assert.match(run.stderr, /accuracy 0\.0% ≥ threshold 0\.0%/);
  });

  test('a broken assertion exits 2 before anything runs, every problem at file:line:col', async () => {
    const run = await agentlib(['eval', 'run', 'fixtures/evals/broken.yaml', '--replay', 'templates/customer_support/cassette.jsonl']);
    assert.equal(run.exitCode, 2);
    assert.match(run.stderr, /broken\.yaml:7:9: unknown assertion type "tool-usd" — did you mean "tool-used"\?/);
    assert.match(run.stderr, /broken\.yaml:9:9: assertion "regex" has an invalid regular expression/);
    assert.equal(run.stdout, '');
  });

  test('filters that match nothing exit 4; a bad -o extension, --shard or action exits 2', async () => {
    const none = await agentlib(['eval', 'run', 'templates/customer_support/eval.yaml', '--replay', 'templates/customer_support/eval-cassettes', '--filter-tag', 'nope']);
    assert.equal(none.exitCode, 4);
    assert.match(none.stderr, /no case of .* matched the filters/);
    assert.equal((await agentlib(['eval', 'run', 'templates/customer_support/eval.yaml', '-o', 'x.pdf'])).exitCode, 2);
    assert.equal((await agentlib(['eval', 'run', 'templates/customer_support/eval.yaml', '--shard', '3/2'])).exitCode, 2);
    const typo = await agentlib(['eval', 'rnu', 'x.yaml']);
    assert.equal(typo.exitCode, 2);
    assert.match(typo.stderr, /did you mean "run"/);
  });

  test('--record and --replay cannot be used together (exit 2)', async () => {
    const both = await agentlib(['eval', 'run', 'templates/customer_support/eval.yaml', '--record', join(out, 'x.jsonl'), '--replay', 'templates/customer_support/cassette.jsonl']);
    assert.equal(both.exitCode, 2);
    assert.match(both.stderr, /--record and --replay cannot be used together/);
  });

  test('shards, merge, compare and view', async () => {
    mkdirSync(out, { recursive: true });
    const full = join(out, 'full.json');
    assert.equal((await agentlib(['eval', 'run', 'fixtures/evals/failing.yaml', '--replay', 'templates/customer_support/cassette.jsonl', '-o', full])).exitCode, 1);
    const shards = [];
    for (const i of [1, 2]) {
      const file = join(out, `shard${i}.json`);
      const run = await agentlib(['eval', 'run', 'fixtures/evals/failing.yaml', '--replay', 'templates/customer_support/cassette.jsonl', '--shard', `${i}/2`, '-o', file]);
      if (run.exitCode !== 4) shards.push(file);
    }
    const merged = join(out, 'merged.json');
    const merge = await agentlib(['eval', 'merge', ...shards, '-o', merged, '-o', join(out, 'merged.junit.xml'), '--json']);
    assert.equal(merge.exitCode, 1, merge.stderr);
    const doc = JSON.parse(merge.stdout) as { report: { cases: { id: string; verdict: string }[] } };
    assert.deepEqual(doc.report.cases.map((c) => c.verdict).sort(), ['fail', 'skip']);

    const pass = join(out, 'pass.json');
    assert.equal((await agentlib(['eval', 'run', 'templates/customer_support/eval.yaml', '--replay', 'templates/customer_support/eval-cassettes', '-o', pass])).exitCode, 0);
    const compare = await agentlib(['eval', 'compare', pass, pass]);
    assert.equal(compare.exitCode, 0, compare.stderr);
    assert.match(compare.stdout, /no regression/);

    const view = await agentlib(['eval', 'view', full, '--case', 'return policy comes from the knowledge base'], out);
    assert.equal(view.exitCode, 0, view.stderr);
    assert.match(view.stdout, /✗ tool-used: never called create_ticket/);
    const tracePath = /trace: agentlib trace view (\S+)/.exec(view.stdout)?.[1];
    assert.ok(tracePath, view.stdout);
    const shown = await agentlib(['trace', 'show', tracePath, '--json'], out);
    assert.equal(shown.exitCode, 0, shown.stderr);
    assert.match(shown.stdout, /search_kb/);
  });

  test('--baseline: a case that passed and now fails is a regression (exit 1)', async () => {
    const pass = join(out, 'baseline.json');
    assert.equal((await agentlib(['eval', 'run', 'templates/customer_support/eval.yaml', '--replay', 'templates/customer_support/eval-cassettes', '-o', pass])).exitCode, 0);
    const run = await agentlib(['eval', 'run', 'fixtures/evals/failing.yaml', '--replay', 'templates/customer_support/cassette.jsonl', '--baseline', pass, '--fail-under', '0']);
    assert.equal(run.exitCode, 1, run.stderr);
    assert.match(run.stdout, /return policy comes from the knowledge base .*REGRESSION|REGRESSION/);
  });

  test('--save-baseline stores the run in a baseline store; --baseline and compare read it by url#name', async () => {
    const store = `sqlite://${join(out, 'baselines.db')}`;
    const save = await agentlib(['eval', 'run', 'templates/customer_support/eval.yaml', '--replay', 'templates/customer_support/eval-cassettes', '--save-baseline', `${store}#support`]);
    assert.equal(save.exitCode, 0, save.stderr);
    assert.match(save.stderr, /saved baseline "support" to sqlite:\/\//);
    const regressed = await agentlib(['eval', 'run', 'fixtures/evals/failing.yaml', '--replay', 'templates/customer_support/cassette.jsonl', '--baseline', `${store}#support`, '--fail-under', '0', '--json']);
    assert.equal(regressed.exitCode, 1, regressed.stderr);
    const doc = JSON.parse(regressed.stdout) as { comparison: { regressions: { id: string; from: string; to: string }[] } };
    assert.deepEqual(doc.comparison.regressions, [{ id: 'return policy comes from the knowledge base', from: 'pass', to: 'fail' }]);
    // Without a name, --save-baseline and --baseline use the suite file's name ("eval").
    assert.equal((await agentlib(['eval', 'run', 'templates/customer_support/eval.yaml', '--replay', 'templates/customer_support/eval-cassettes', '--save-baseline', store])).exitCode, 0);
    const same = await agentlib(['eval', 'run', 'templates/customer_support/eval.yaml', '--replay', 'templates/customer_support/eval-cassettes', '--baseline', store]);
    assert.equal(same.exitCode, 0, same.stderr);
    assert.match(same.stdout, /no regression/);
    const current = join(out, 'current.json');
    assert.equal((await agentlib(['eval', 'run', 'fixtures/evals/failing.yaml', '--replay', 'templates/customer_support/cassette.jsonl', '-o', current])).exitCode, 1);
    const compare = await agentlib(['eval', 'compare', `${store}#support`, current]);
    assert.equal(compare.exitCode, 1, compare.stderr);
    assert.match(compare.stdout, /REGRESSION/);
    const view = await agentlib(['eval', 'view', `${store}#eval`]);
    assert.equal(view.exitCode, 0, view.stderr);
    assert.match(view.stdout, /customer_support: 100% accuracy/);

    const missing = await agentlib(['eval', 'run', 'templates/customer_support/eval.yaml', '--replay', 'templates/customer_support/eval-cassettes', '--baseline', `${store}#nope`]);
    assert.equal(missing.exitCode, 2);
    assert.match(missing.stderr, /no baseline "nope" in sqlite:\/\//);
    const badName = await agentlib(['eval', 'run', 'templates/customer_support/eval.yaml', '--save-baseline', `${store}#../x`]);
    assert.equal(badName.exitCode, 2);
    assert.match(badName.stderr, /--save-baseline: .*baseline name/);
    const badUrl = await agentlib(['eval', 'run', 'templates/customer_support/eval.yaml', '--save-baseline', 'lancedb://x#main']);
    assert.equal(badUrl.exitCode, 2);
    assert.match(badUrl.stderr, /--save-baseline takes a store URL and a name/);
    const unnamed = await agentlib(['eval', 'compare', store, current]);
    assert.equal(unnamed.exitCode, 2);
    assert.match(unnamed.stderr, /name the baseline after "#"/);
  });
});
