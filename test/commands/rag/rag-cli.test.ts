import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { binPath, ensureCliBuilt, repoRoot } from '../../support/cli-build.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlib-rag-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the built CLI in `dir` (no terminal, CI set: plain progress lines). */
function agentlib(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [binPath, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: '1', NO_COLOR: '1' } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface SearchJson {
  version: number;
  results: { id: string; score: number; source: string; text: string; metadata: Record<string, unknown> }[];
}

describe('agentlib rag (built binary)', () => {
  before(() => {
    ensureCliBuilt();
    cpSync(join(repoRoot, 'templates', 'rag_chatbot', 'fixtures', 'docs'), join(dir, 'docs'), { recursive: true });
  });

  test('lancedb://dir: index a folder, then search it with sources', () => {
    const indexed = agentlib('rag', 'index', 'docs', '--store', 'lancedb://lance', '--json');
    assert.equal(indexed.status, 0, indexed.stderr);
    assert.equal((JSON.parse(indexed.stdout) as { indexed: unknown[] }).indexed.length, 6);
    const found = JSON.parse(agentlib('rag', 'search', 'parental leave', '--store', 'lancedb://lance', '--json').stdout) as SearchJson;
    assert.equal(found.results[0]?.source, 'docs/time-off-policy.md');
  });

  for (const store of ['sqlite://kb.db']) {
    test(`${store}: index a folder, skip it unchanged, re-index one changed file, search with sources, ls`, () => {
      const first = agentlib('rag', 'index', 'docs', '--store', store);
      assert.equal(first.status, 0, first.stderr);
      assert.match(first.stderr, /\[1\/6\] docs\/benefits-overview\.md: \d+ chunks/);
      assert.match(first.stderr, /Indexed 6 file\(s\), \d+ chunks into .* \(hashing-384\); 0 unchanged\./);
      assert.equal(first.stdout, '', 'progress and the summary go to stderr');

      const again = agentlib('rag', 'index', 'docs', '--store', store, '--json');
      assert.equal(again.status, 0, again.stderr);
      const report = JSON.parse(again.stdout) as { indexed: unknown[]; skipped: string[]; chunks: number };
      assert.deepEqual(report.indexed, []);
      assert.equal(report.skipped.length, 6, 'every file unchanged: nothing embedded again');

      writeFileSync(join(dir, 'docs', 'remote-work.md'), '# Remote work\n\nEmployees may work from the Lisbon office aquarium on Fridays.\n');
      const changed = JSON.parse(agentlib('rag', 'index', 'docs', '--store', store, '--json').stdout) as { indexed: { source: string; chunks: number }[]; removed: number };
      assert.deepEqual(changed.indexed, [{ source: 'docs/remote-work.md', chunks: 1 }]);
      assert.ok(changed.removed > 1, 'the old chunks of the changed file were removed');

      const search = agentlib('rag', 'search', 'Lisbon office aquarium', '--store', store, '--json', '--top-k', '2');
      assert.equal(search.status, 0, search.stderr);
      const found = JSON.parse(search.stdout) as SearchJson;
      assert.equal(found.version, 1);
      assert.equal(found.results[0]?.source, 'docs/remote-work.md');
      assert.match(found.results[0]?.text ?? '', /aquarium/);
      assert.equal(found.results.length, 2);
      assert.ok((found.results[0]?.score ?? 0) > (found.results[1]?.score ?? 1));


      const ls = JSON.parse(agentlib('rag', 'ls', '--store', store, '--table', 'agentlib_rag_vectors', '--json').stdout) as { sources: { source: string; chunks: number; embedder: string }[]; chunks: number };
      assert.equal(ls.sources.length, 6);
      assert.deepEqual(ls.sources.find((s) => s.source === 'docs/remote-work.md'), { source: 'docs/remote-work.md', chunks: 1, characters: ls.sources.find((s) => s.source === 'docs/remote-work.md')?.['characters' as 'chunks'], embedder: 'hashing-384', sha256: ls.sources.find((s) => s.source === 'docs/remote-work.md')?.['sha256' as 'chunks'] });
      assert.equal(ls.chunks, ls.sources.reduce((n, s) => n + s.chunks, 0));
    });
  }

  test('ls: every index of a store with its size; --table: the sources of one', () => {
    assert.equal(agentlib('rag', 'index', 'docs/benefits-overview.md', 'docs/remote-work.md', '--store', 'sqlite://many.db', '--table', 'handbook').status, 0);
    assert.equal(agentlib('rag', 'index', 'docs/time-off-policy.md', '--store', 'sqlite://many.db').status, 0);
    const listed = agentlib('rag', 'ls', '--store', 'sqlite://many.db', '--json');
    assert.equal(listed.status, 0, listed.stderr);
    const doc = JSON.parse(listed.stdout) as { version: number; backend: string; indexes: { table: string; chunks: number; sources: number; characters: number; bytes: number; embedder: string }[] };
    assert.equal(doc.version, 1);
    assert.equal(doc.backend, 'sqlite');
    assert.deepEqual(doc.indexes.map((index) => [index.table, index.sources, index.embedder]), [['agentlib_rag_vectors', 1, 'hashing-384'], ['handbook', 2, 'hashing-384']]);
    for (const index of doc.indexes) assert.ok(index.chunks >= index.sources && index.characters > 0 && index.bytes >= 4096, JSON.stringify(index));

    const text = agentlib('rag', 'ls', '--store', 'sqlite://many.db');
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^table +chunks +sources +characters +bytes +embedder$/m);
    assert.match(text.stdout, /^handbook +\d+ +2 +\d+ +\d+\.\d KiB +hashing-384$/m);
    assert.match(text.stdout, /2 index\(es\) in sqlite:\/\/many\.db \(sqlite\)/);

    const one = JSON.parse(agentlib('rag', 'ls', '--store', 'sqlite://many.db', '--table', 'handbook', '--json').stdout) as { table: string; sources: { source: string }[] };
    assert.equal(one.table, 'handbook');
    assert.deepEqual(one.sources.map((row) => row.source), ['docs/benefits-overview.md', 'docs/remote-work.md']);

    const lance = agentlib('rag', 'ls', '--store', 'lancedb://lance', '--json');
    assert.equal(lance.status, 0, lance.stderr);
    const lanceDoc = JSON.parse(lance.stdout) as { indexes: { table: string; sources: number; bytes: number }[] };
    assert.deepEqual(lanceDoc.indexes.map((index) => [index.table, index.sources]), [['agentlib_rag_vectors', 6]]);
    assert.ok((lanceDoc.indexes[0]?.bytes ?? 0) > 0);

    const none = agentlib('rag', 'ls', '--store', 'sqlite://absent.db');
    assert.equal(none.status, 0, none.stderr);
    assert.match(none.stdout, /No index in sqlite:\/\/absent\.db/);
    assert.equal(existsSync(join(dir, 'absent.db')), false, 'ls creates nothing');
    const bad = agentlib('rag', 'ls', '--store', 'redis://127.0.0.1:6379');
    assert.equal(bad.status, 2, bad.stderr);
    assert.match(bad.stderr, /--store: /);
  });

  test('exit codes: 4 when a search finds nothing, 2 for usage and configuration mistakes', () => {
    assert.equal(agentlib('rag', 'index', 'docs', '--store', 'sqlite://codes.db').status, 0);
    const none = agentlib('rag', 'search', 'zzqx', '--mode', 'bm25', '--store', 'sqlite://codes.db');
    assert.equal(none.status, 4, none.stderr);
    assert.match(none.stdout, /No passages match "zzqx"/);
    const cases: [string[], RegExp][] = [
      [['rag', 'serch', 'x'], /unknown rag action "serch".*Did you mean "search"/],
      [['rag', 'index', 'missing-folder'], /nothing to index at missing-folder/],
      [['rag', 'search', 'leave', '--store', 'redis://127.0.0.1:6379'], /--store: .*memory:\/\/, sqlite:\/\/, postgres:\/\/, lancedb:\/\//],
      [['rag', 'search', 'leave', '--store', 'sqlite://codes.db', '--filter', '{"source":{"$regex":"a"}}'], /--filter: unsupported filter operator \$regex/],
      [['rag', 'search', 'leave', '--store', 'sqlite://codes.db', '--embedder', 'hashng'], /unknown embedder "hashng"/],
    ];
    for (const [args, message] of cases) {
      const result = agentlib(...args);
      assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message, args.join(' '));
    }
  });

  test('an index keeps one embedder: indexing or searching it with another is refused (exit 2)', () => {
    assert.equal(agentlib('rag', 'index', 'docs/benefits-overview.md', '--store', 'sqlite://one.db').status, 0);
    const index = agentlib('rag', 'index', 'docs/remote-work.md', '--store', 'sqlite://one.db', '--embedder', 'hashing:256');
    assert.equal(index.status, 2, index.stderr);
    assert.match(index.stderr, /embedded with hashing-384, not hashing-256/);
    const search = agentlib('rag', 'search', 'leave', '--store', 'sqlite://one.db', '--embedder', 'hashing:256');
    assert.equal(search.status, 2, search.stderr);
    assert.match(search.stderr, /256 dimensions; this store holds 384: search the index with the embedder it was built with \(agentlib rag ls/);
  });
});
