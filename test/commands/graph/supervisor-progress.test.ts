import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { InMemoryCheckpointStore, SupervisorAgent } from '../../../lib/graph/index.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { SupervisorProgress } from '../../../commands/graph/supervisor-progress.js';

describe('graph run: the supervisor text view', () => {
  test('shows the plan, which agent is working on what, failures and the end, from the checkpoints', async () => {
    const store = new InMemoryCheckpointStore();
    const view = new SupervisorProgress(store);
    const lines: string[] = [];
    const agents = ['researcher', 'writer'].map((name) => new Agent({ name, provider: new ScriptedProvider({ replies: [`${name} done`] }) }));
    const provider = new ScriptedProvider({ replies: [JSON.stringify({ steps: [{ agent: 'researcher', task: 'find facts' }, { agent: 'writer', task: 'write' }] })] });
    const team = new SupervisorAgent({ agents, provider, strategy: 'plan_and_execute', checkpointStore: store, observers: [{ onGraphCheckpoint: async (e) => void lines.push(...(await view.update(e.checkpointId))), blocking: true }] });
    await team.run('report');
    assert.deepEqual(lines, ['plan:', '  1. researcher: find facts', '  2. writer: write', '→ researcher is working on: find facts', '→ writer is working on: write', 'finished after 2 turns']);
  });
});
