import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { chatCommand } from '../../../cli/commands/chat-command.js';
import { main } from '../../../cli/main.js';
import { whyNotInteractive } from '../../../commands/chat/terminal-check.js';
import { memoryIO } from '../../support/cli-io.js';

function ttyStdin(): NodeJS.ReadableStream & { isTTY: boolean } {
  return Object.assign(new PassThrough(), { isTTY: true });
}

describe('agentlib chat (command)', () => {
  test('without a terminal it says so on stderr, points to agentlib run and exits 2', async () => {
    const io = memoryIO({});
    const code = await main(['chat', 'examples/calculator/agent.yaml'], { io, commands: [chatCommand], handleSignals: false });
    assert.equal(code, 2);
    assert.match(io.err(), /agentlib chat needs an interactive terminal \(stdin is not a terminal\)/);
    assert.match(io.err(), /agentlib run examples\/calculator\/agent\.yaml "your prompt"/);
    assert.equal(io.out(), '');
  });

  test('stdout piped or CI set: not interactive either', () => {
    const io = memoryIO({}, { isTTY: false });
    assert.equal(whyNotInteractive({ ...io, stdin: ttyStdin() }), 'stdout is not a terminal');
    const tty = memoryIO({ CI: 'true' }, { isTTY: true });
    assert.equal(whyNotInteractive({ ...tty, stdin: ttyStdin() }), 'CI is set');
    assert.equal(whyNotInteractive({ ...memoryIO({ CI: 'false' }, { isTTY: true }), stdin: ttyStdin() }), undefined);
  });

  test('--help lists the options', async () => {
    const io = memoryIO({});
    const code = await main(['chat', '--help'], { io, commands: [chatCommand], handleSignals: false });
    assert.equal(code, 0);
    for (const option of ['--model', '--provider', '--var', '--approve', '--session', '--replay']) assert.ok(io.out().includes(option), option);
  });

  test('a missing agent file is a usage error (exit 2) even on a terminal', async () => {
    const io = { ...memoryIO({}, { isTTY: true }), stdin: ttyStdin() };
    const code = await main(['chat', 'no/such/agent.yaml'], { io, commands: [chatCommand], handleSignals: false });
    assert.equal(code, 2);
    assert.match(io.err(), /No agent file "no\/such\/agent\.yaml"/);
  });
});
