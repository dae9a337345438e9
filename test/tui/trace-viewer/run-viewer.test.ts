import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runTraceViewer } from '../../../tui/trace-viewer/run-viewer.js';
import { waitFor } from '../../support/tmux.js';
import { fakeTerminal } from '../support/fake-terminal.js';
import { sampleTrace } from './traces.js';

// Ink draws nothing until exit when it thinks it runs in CI (is-in-ci, read when ink is first
// imported, lazily by runTraceViewer): this test drives a real interactive session.
delete process.env['CI'];
delete process.env['CONTINUOUS_INTEGRATION'];

const ALT_ON = '\u001b[?1049h';
const ALT_OFF = '\u001b[?1049l';
const COLOUR = /\u001b\[(3[0-7]|9[0-7]|38;)/;

describe('runTraceViewer', () => {
  test('draws on the alternate screen, resolves 0 on q and restores the screen', async () => {
    const { stdin, stdout, streams } = fakeTerminal(100, 30);
    const done = runTraceViewer(sampleTrace(), { ...streams, color: false });
    await waitFor(() => stdout.output.includes('q quit'), 'the first frame', 5000);
    assert.ok(stdout.output.startsWith(ALT_ON), 'enters the alternate screen first');
    assert.match(stdout.output, /steps 5 · llm 2 · tools 2 · errors 1/);
    assert.doesNotMatch(stdout.output, COLOUR, 'color: false draws no colours');
    stdin.press('q');
    assert.equal(await done, 0);
    assert.ok(stdout.output.endsWith(ALT_OFF), 'leaves the alternate screen last');
  });

  test('color: true draws colours; Ctrl+C quits with 0 too', async () => {
    const { stdin, stdout, streams } = fakeTerminal(100, 30);
    const done = runTraceViewer(sampleTrace(), { ...streams, color: true });
    await waitFor(() => stdout.output.includes('q quit'), 'the first frame', 5000);
    assert.match(stdout.output, COLOUR);
    stdin.press('\u0003');
    assert.equal(await done, 0);
  });
});
