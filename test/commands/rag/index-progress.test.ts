import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { plainProgress, progressBar, wantsProgressBar } from '../../../commands/rag/index-progress.js';
import { memoryIO } from '../../support/cli-io.js';

describe('agentlib rag index progress', () => {
  test('a bar on a terminal without CI; plain lines otherwise', () => {
    assert.equal(wantsProgressBar(memoryIO({}, { isTTY: true })), true);
    assert.equal(wantsProgressBar(memoryIO({ CI: 'true' }, { isTTY: true })), false);
    assert.equal(wantsProgressBar(memoryIO({ CI: '0' }, { isTTY: true })), true);
    assert.equal(wantsProgressBar(memoryIO({}, { isTTY: false })), false);
  });

  test('the bar shows files, chunks, embeddings, rate and ETA, redrawn in place at most every 100 ms', () => {
    const io = memoryIO({}, { isTTY: true });
    io.stderr.columns = 120;
    let now = 0;
    const bar = progressBar(io, () => now);
    now = 2000;
    bar.update({ files: 1, totalFiles: 4, skipped: 0, chunks: 10, embedded: 10, current: 'docs/a.md' });
    const first = io.err();
    assert.match(first, /^\r\x1b\[2K\[█{6}░{18}\] 1\/4 files · 10 chunks · 10 embedded · 5\/s · ETA 6 s · docs\/a\.md$/);
    now = 2050;
    bar.update({ files: 1, totalFiles: 4, skipped: 0, chunks: 10, embedded: 12, current: 'docs/b.md' });
    assert.equal(io.err(), first, 'not redrawn within 100 ms');
    now = 8000;
    bar.update({ files: 4, totalFiles: 4, skipped: 1, chunks: 30, embedded: 30, current: 'docs/d.md' });
    bar.stop();
    assert.match(io.err(), /\[█{24}\] 4\/4 files · 30 chunks · 30 embedded · 4\/s · ETA 0 s · docs\/d\.md\n$/);
    const narrow = memoryIO({}, { isTTY: true });
    progressBar(narrow, () => 1000).update({ files: 1, totalFiles: 4, skipped: 0, chunks: 10, embedded: 10, current: 'docs/a-very-long-file-name.md' });
    assert.match(narrow.err(), /…$/, 'cut to the terminal width (80 columns when unknown)');
    assert.equal(narrow.err().replace(/^\r\x1b\[2K/, '').length, 79);
  });

  test('plain progress: one line per finished file, unchanged files named as skipped', () => {
    const io = memoryIO();
    const view = plainProgress(io);
    view.update({ files: 0, totalFiles: 2, skipped: 0, chunks: 0, embedded: 0 });
    view.update({ files: 0, totalFiles: 2, skipped: 0, chunks: 0, embedded: 3, current: 'a.md' });
    view.update({ files: 1, totalFiles: 2, skipped: 0, chunks: 3, embedded: 3, current: 'a.md' });
    view.update({ files: 2, totalFiles: 2, skipped: 1, chunks: 3, embedded: 3, current: 'b.md' });
    view.stop();
    assert.equal(io.err(), '[1/2] a.md: 3 chunks\n[2/2] b.md: unchanged, skipped\n');
  });
});
