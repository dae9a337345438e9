import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { SQLiteSessionStore } from '../../../lib/sessions/sqlite-session-store.js';
import { closeAllStorage } from '../../../lib/storage/index.js';

const WRITERS = 8;
const APPENDS = 25;

function lineFrom(child: ChildProcess, expected: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.split('\n').includes(expected)) resolve();
    });
    child.once('exit', (code) => {
      if (!out.split('\n').includes(expected)) reject(new Error(`writer exited ${String(code)} before "${expected}": ${err}`));
    });
  });
}

describe('one SQLite session, eight processes appending at once (then saving with expectedRevision)', () => {
  let dir: string | undefined;
  let children: ChildProcess[] = [];
  after(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill();
    await closeAllStorage();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  test('every message is present exactly once, in per-writer order, appended or saved', { timeout: 60_000 }, async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentlib-sessions-mp-'));
    const path = join(dir, 'agentlib.db');
    const script = join(import.meta.dirname, 'fixtures', 'append-writer.ts');
    children = Array.from({ length: WRITERS }, (_, writer) =>
      spawn(process.execPath, ['--import', 'tsx', script, path, String(writer), String(APPENDS)], { stdio: ['pipe', 'pipe', 'pipe'] }),
    );
    // Every writer has opened the database before any starts writing, so the appends overlap.
    await Promise.all(children.map((child) => lineFrom(child, 'ready')));
    const done = children.map((child) => lineFrom(child, 'done'));
    for (const child of children) child.stdin!.end('go\n');
    await Promise.all(done);
    const store = new SQLiteSessionStore({ path });
    const record = await store.load('shared');
    await store.close();
    const contents = record!.messages.map((m) => m.content);
    assert.equal(contents.length, WRITERS * APPENDS);
    assert.equal(new Set(contents).size, WRITERS * APPENDS, 'no message twice');
    for (let writer = 0; writer < WRITERS; writer++) {
      assert.deepEqual(contents.filter((c) => c.startsWith(`${writer}:`)), Array.from({ length: APPENDS }, (_, i) => `${writer}:${i}`));
    }
    assert.equal(record!.revision, WRITERS * APPENDS);
    // The same through load + save with expectedRevision (one compare-and-set statement per save):
    // a writer whose save lost the race was refused and tried again, nothing overwritten.
    const store2 = new SQLiteSessionStore({ path });
    const saved = await store2.load('saved');
    await store2.close();
    const savedContents = saved!.messages.map((m) => m.content);
    assert.equal(savedContents.length, WRITERS * APPENDS);
    assert.equal(new Set(savedContents).size, WRITERS * APPENDS, 'no message twice');
    for (let writer = 0; writer < WRITERS; writer++) {
      assert.deepEqual(savedContents.filter((c) => c.startsWith(`${writer}:`)), Array.from({ length: APPENDS }, (_, i) => `${writer}:${i}`));
    }
    assert.equal(saved!.revision, WRITERS * APPENDS);
  });
});
