import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { execa } from 'execa';
import { repoRoot } from '../support/cli-build.js';

describe('the packed package (npm pack) carries what init and the offline runs need', () => {
  test('every template folder ships whole: cassette, PROVENANCE.md, README, fixtures; and the blank agent\'s cassette', async () => {
    const pack = await execa('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot });
    const files = new Set((JSON.parse(pack.stdout) as { files: { path: string }[] }[])[0]?.files.map((file) => file.path));
    const templates = join(repoRoot, 'templates');
    for (const folder of readdirSync(templates, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
      for (const entry of readdirSync(join(templates, folder.name), { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || /\.db-(?:wal|shm|journal)$/.test(entry.name)) continue; // SQLite side files of an index open right now
        const path = join(entry.parentPath, entry.name).slice(repoRoot.length).split('\\').join('/').replace(/^\//, '');
        assert.ok(files.has(path), `${path} is in the tarball`);
      }
    }
    for (const path of ['templates/_blank/cassette.jsonl', 'templates/_blank/PROVENANCE.md', 'templates/data_analyst/cassette.jsonl', 'templates/rag_chatbot/index.db', 'dist/lib/storage/index.js']) assert.ok(files.has(path), path);
  });
});
