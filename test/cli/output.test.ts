import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { colorEnabled, JSON_DOCUMENT_VERSION, writeData, writeJson, writeLog } from '../../cli/output.js';
import { memoryIO } from '../support/cli-io.js';

describe('cli output', () => {
  test('data goes to stdout and logs to stderr, each ending in a newline', () => {
    const io = memoryIO();
    writeData(io, 'result');
    writeLog(io, 'working…\n');
    assert.equal(io.out(), 'result\n');
    assert.equal(io.err(), 'working…\n');
  });

  test('--json documents carry a version first', () => {
    const io = memoryIO();
    writeJson(io, { status: 'ok', items: [1] });
    assert.equal(JSON_DOCUMENT_VERSION, 1);
    const text = io.out();
    assert.ok(text.startsWith('{\n  "version": 1,'), text);
    assert.deepEqual(JSON.parse(text), { version: 1, status: 'ok', items: [1] });
    assert.throws(() => writeJson(io, { version: 2 }), /must not set "version"/);
  });

  test('colour: FORCE_COLOR=0 and NO_COLOR win, FORCE_COLOR forces, otherwise a non-dumb TTY', () => {
    const tty = { write: () => true, isTTY: true };
    const pipe = { write: () => true, isTTY: false };
    assert.equal(colorEnabled(tty, {}), true);
    assert.equal(colorEnabled(pipe, {}), false);
    assert.equal(colorEnabled(tty, { FORCE_COLOR: '0' }), false);
    assert.equal(colorEnabled(tty, { FORCE_COLOR: 'false' }), false);
    assert.equal(colorEnabled(tty, { NO_COLOR: '1' }), false);
    assert.equal(colorEnabled(tty, { NO_COLOR: '' }), true);
    assert.equal(colorEnabled(pipe, { FORCE_COLOR: '1' }), true);
    assert.equal(colorEnabled(tty, { TERM: 'dumb' }), false);
  });
});
