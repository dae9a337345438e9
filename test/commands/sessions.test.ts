import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SQLiteSessionStore } from '../../lib/sessions/sqlite-session-store.js';
import { closeAllStorage } from '../../lib/storage/index.js';
import { ensureCliBuilt } from '../support/cli-build.js';
import { agentlib, cliEnv, scratchProject, type ScratchProject } from './run-helpers.js';

describe('agentlib sessions (built binary)', () => {
  let project: ScratchProject;
  before(async () => {
    ensureCliBuilt();
    project = scratchProject();
    // Sessions of the calculator agent: the default store (.agentlib/agentlib.db), namespace "calculator".
    const store = new SQLiteSessionStore({ path: join(project.dir, '.agentlib', 'agentlib.db'), namespace: 'calculator' });
    await store.save('alice', { messages: [{ role: 'user', content: 'What is 6 x 7?' }, { role: 'assistant', content: '', toolCalls: [{ id: 'c1', toolName: 'multiply', parameters: { a: 6, b: 7 } }] }, { role: 'tool', content: '42', toolCallId: 'c1', toolName: 'multiply' }, { role: 'assistant', content: '42.' }] });
    await store.save('bob', { messages: [{ role: 'user', content: 'hi' }] });
    await store.close();
    await closeAllStorage();
  });
  after(() => project.cleanup());

  const run = (args: string[]) => agentlib(['sessions', ...args], { cwd: project.dir, env: cliEnv(undefined) });

  test('ls, show, branch, export and rm, as text and --json', async () => {
    const ls = await run(['ls', '--agent', project.agent, '--json']);
    assert.equal(ls.exitCode, 0, ls.stderr);
    const listed = JSON.parse(ls.stdout) as { version: number; namespace: string; sessions: { id: string; messageCount: number }[] };
    assert.equal(listed.namespace, 'calculator');
    assert.deepEqual(listed.sessions.map((s) => [s.id, s.messageCount]).sort(), [['alice', 4], ['bob', 1]]);
    const text = await run(['ls', '--store', 'sqlite://', '--namespace', 'calculator']);
    assert.match(text.stdout, /^id +messages +updated +expires\n/);
    assert.match(text.stdout, /alice +4 /);

    const show = await run(['show', 'alice', '--agent', project.agent]);
    assert.equal(show.exitCode, 0, show.stderr);
    assert.match(show.stdout, /user: What is 6 x 7\?\nassistant: \n {4}→ multiply\({"a":6,"b":7}\)\ntool multiply: 42\nassistant: 42\./);

    const branch = await run(['branch', 'alice', 'alice-2', '--agent', project.agent, '--json']);
    assert.equal(branch.exitCode, 0, branch.stderr);
    assert.equal((JSON.parse(branch.stdout) as { session: { id: string; messages: unknown[] } }).session.messages.length, 4);
    const taken = await run(['branch', 'alice', 'bob', '--agent', project.agent]);
    assert.equal(taken.exitCode, 2);
    assert.match(taken.stderr, /already exists/);

    const exported = await run(['export', 'alice-2', '-o', 'alice.json', '--agent', project.agent]);
    assert.equal(exported.exitCode, 0, exported.stderr);
    const document = JSON.parse(readFileSync(join(project.dir, 'alice.json'), 'utf8')) as { version: number; session: { messages: { toolCalls?: unknown[] }[] } };
    assert.equal(document.version, 1);
    assert.deepEqual(document.session.messages[1]!.toolCalls, [{ id: 'c1', toolName: 'multiply', parameters: { a: 6, b: 7 } }]);

    const rm = await run(['rm', 'alice-2', 'bob', '--agent', project.agent, '--json']);
    assert.equal(rm.exitCode, 0, rm.stderr);
    const after = JSON.parse((await run(['ls', '--agent', project.agent, '--json'])).stdout) as { sessions: { id: string }[] };
    assert.deepEqual(after.sessions.map((s) => s.id), ['alice']);
  });

  test('unknown ids, hostile ids, bad actions and a wrong store are usage errors (exit 2)', async () => {
    const missing = await run(['show', 'nobody', '--agent', project.agent]);
    assert.equal(missing.exitCode, 2);
    assert.match(missing.stderr, /Session not found: nobody/);
    const hostile = await run(['show', '../../etc/passwd', '--agent', project.agent]);
    assert.equal(hostile.exitCode, 2);
    const nothingDeleted = await run(['rm', 'alice', 'nobody', '--agent', project.agent]);
    assert.equal(nothingDeleted.exitCode, 2);
    assert.equal((await run(['show', 'alice', '--agent', project.agent])).exitCode, 0, 'rm deletes nothing when one id is unknown');
    const typo = await run(['lss']);
    assert.equal(typo.exitCode, 2);
    assert.match(typo.stderr, /Did you mean "ls"/);
    const store = await run(['ls', '--store', 'postgres://x/y']);
    assert.equal(store.exitCode, 2);
  });
});
