import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { tool } from '../../../lib/tools/tool.js';
import { progressText } from '../../../lib/tools/progress-text.js';
import type { ToolProgress } from '../../../lib/tools/types.js';
import { eventLog } from '../../support/agent-harness.js';

test('ctx.progress: tool-chunk events with progress, not part of the result; reports after the call returned are dropped', async () => {
  let late: ((update: ToolProgress) => void) | undefined;
  const copy = tool({
    name: 'copy_files',
    description: 'Copies files and reports how far it is',
    execute: (_args, ctx) => {
      ctx.progress?.({ progress: 1, total: 2, message: 'a.txt' });
      ctx.progress?.({ progress: 2 });
      late = ctx.progress;
      return 'copied 2 files';
    },
  });
  const log = eventLog();
  const agent = new Agent({ provider: new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'copy_files', parameters: {} }] }, 'Copied.'] }), tools: [copy], observers: [log.observer] });
  assert.equal((await agent.run('copy')).status, 'completed');
  late?.({ progress: 3 });
  assert.deepEqual(log.of('tool-chunk').map((c) => [c.toolName, c.chunk, c.progress]), [
    ['copy_files', 'progress 1/2: a.txt\n', { progress: 1, total: 2, message: 'a.txt' }],
    ['copy_files', 'progress 2\n', { progress: 2 }],
  ]);
  assert.equal(log.of('tool-end')[0]?.result, 'copied 2 files');
});

test('progressText: amount, total and message', () => {
  assert.equal(progressText({ progress: 0.5 }), 'progress 0.5\n');
  assert.equal(progressText({ progress: 3, total: 10, message: 'step three' }), 'progress 3/10: step three\n');
  assert.equal(progressText({ progress: 3, message: '' }), 'progress 3\n');
});
