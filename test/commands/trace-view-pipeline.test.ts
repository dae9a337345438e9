import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Agent } from '../../lib/agent/agent.js';
import type { AgentEvent } from '../../lib/events/types.js';
import { pipe, step } from '../../lib/pipeline/index.js';
import { ScriptedProvider } from '../../lib/providers/scripted.js';
import { traceToJSONL } from '../../lib/trace/jsonl.js';
import { TraceRecorder } from '../../lib/trace/recorder.js';
import { testRuntime } from '../support/agent-harness.js';
import { agentlibTrace, traceProject, writeRaw } from './trace-helpers.js';

describe('pipeline runs in trace files (docs/decisions/0024)', () => {
  test('each step is a graph_node_start/end pair marked pipeline-step; an agent step hangs its run under the step; trace view shows them', async () => {
    const writer = new Agent({ name: 'writer', provider: new ScriptedProvider({ replies: ['A HAIKU ABOUT TIDES'] }), runtime: testRuntime() });
    const pipeline = pipe(step((topic: string) => `Write a haiku about ${topic}`, 'prompt'), step(writer), step((text: string) => text.toLowerCase(), 'lower'));
    let recorder: TraceRecorder | undefined;
    const observer = { onEvent: (e: AgentEvent): void => { recorder ??= new TraceRecorder({ runId: e.parentRunId ?? e.runId }); recorder.handle(e); } };
    const result = await pipeline.run('tides', { observers: [observer], runId: 'pipe_tides' });
    assert.equal(result.output, 'a haiku about tides');
    const trace = recorder?.trace;
    assert.ok(trace);
    assert.equal(trace.runId, 'pipe_tides');
    const starts = trace.steps.filter((s) => s.type === 'graph_node_start');
    assert.deepEqual(starts.map((s) => [s.name, s.metadata?.['kind'], s.metadata?.['index']]), [['prompt', 'pipeline-step', 0], ['writer', 'pipeline-step', 1], ['lower', 'pipeline-step', 2]]);
    assert.deepEqual(trace.steps.filter((s) => s.type === 'graph_node_end').map((s) => s.output), ['Write a haiku about tides', 'A HAIKU ABOUT TIDES', 'a haiku about tides']);
    const llm = trace.steps.find((s) => s.type === 'llm_call');
    assert.equal(llm?.parentId, starts[1]?.id, "the agent's LLM call hangs under its pipeline step");
    assert.equal(trace.agentName, 'prompt | writer | lower', 'the trace is named after the pipeline');

    const project = traceProject();
    try {
      const file = join(project.traces, 'pipe_tides.jsonl');
      writeRaw(file, traceToJSONL(trace.toJSON()));
      const shown = await agentlibTrace(['trace', 'view', file, '--tree', '--ascii'], project.dir);
      assert.equal(shown.code, 0, shown.err);
      for (const name of ['prompt', 'writer', 'lower']) assert.match(shown.out, new RegExp(`graph_node_start ${name}`));
      assert.match(shown.out, /llm_call/);
    } finally {
      project.cleanup();
    }
  });
});
