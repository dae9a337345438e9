import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { wantsLiveView } from '../../commands/graph/live-run.js';
import type { CliIO } from '../../cli/output.js';

function io(env: Record<string, string>, tty = { stdin: true, stdout: true }): CliIO {
  const stream = (isTTY: boolean) => Object.assign({ write: () => true }, { isTTY });
  return { stdout: stream(tty.stdout), stderr: stream(false), stdin: Object.assign(Object.create(null) as NodeJS.ReadableStream, { isTTY: tty.stdin }), env };
}

describe('agentlib graph run: when the live view draws', () => {
  test('text output on two terminals outside CI; not with json / stream-json, a pipe, or CI set (even empty, as Ink sees it)', () => {
    assert.equal(wantsLiveView('text', io({})), true);
    assert.equal(wantsLiveView(undefined, io({ CI: 'false' })), true);
    assert.equal(wantsLiveView('text', io({ CI: '0' })), true);
    assert.equal(wantsLiveView('json', io({})), false);
    assert.equal(wantsLiveView('stream-json', io({})), false);
    assert.equal(wantsLiveView('text', io({}, { stdin: true, stdout: false })), false);
    assert.equal(wantsLiveView('text', io({}, { stdin: false, stdout: true })), false);
    assert.equal(wantsLiveView('text', io({ CI: 'true' })), false);
    assert.equal(wantsLiveView('text', io({ CI: '' })), false);
    assert.equal(wantsLiveView('text', io({ CONTINUOUS_INTEGRATION: '1' })), false);
  });
});
