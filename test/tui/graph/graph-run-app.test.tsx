// The live view only ever runs outside CI (commands/graph/live-run.ts), and Ink reads CI once, when
// it is first imported (is-in-ci): under CI=true it drops the frames of a resumed run. So CI is
// unset before Ink loads, and everything that imports Ink is imported after this line.
delete process.env['CI'];
delete process.env['CONTINUOUS_INTEGRATION'];

import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { AgentGraph, InMemoryCheckpointStore, interrupt } from '../../../lib/graph/index.js';
import { diagramNodes } from '../../../lib/graph/render/diagram-nodes.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import type { GraphRunEnd } from '../../../tui/graph/use-graph-run.js';
import { testRuntime } from '../../support/agent-harness.js';
import { until } from '../chat/helpers.js';

const { locateBoxes } = await import('../../../tui/graph/diagram-paint.js');
const { GraphRunApp } = await import('../../../tui/graph/GraphRunApp.js');
const { cleanup, press, render } = await import('../../support/ink-act.js');

afterEach(() => cleanup());
const ENTER = '\r';

/** draft (function) → review (asks "Publish?") → publish (an agent that streams its answer). */
function reviewGraph(): AgentGraph {
  const publisher = new Agent({ name: 'publisher', provider: new ScriptedProvider({ replies: [{ text: 'Published the tide poem.', usage: { promptTokens: 30, completionTokens: 12 } }] }), runtime: testRuntime() });
  return new AgentGraph({ name: 'review' })
    .addNode('draft', () => ({ data: { draft: 'v1' }, output: 'drafted' }), { next: 'check' })
    .addNode('check', async function* () {
      const answer: unknown = yield interrupt('Publish the draft?');
      return `approved: ${String(answer)}`;
    }, { next: 'publish' })
    .addNode('publish', publisher)
    .setEntry('draft');
}

async function mount(graph: AgentGraph) {
  const store = new InMemoryCheckpointStore();
  const nodes = diagramNodes(graph.definition());
  const diagram = (await graph.visualize('ascii', { spacing: 'compact' })).trimEnd().split('\n');
  const ends: GraphRunEnd[] = [];
  let left = 0;
  const driver = {
    graph: graph.name,
    nodes,
    start: () => graph.stream('a poem about tides', { checkpointStore: store }),
    resume: (id: string, answer: unknown) => graph.streamResume(id, answer, { checkpointStore: store }),
    onEnd: (end: GraphRunEnd) => void ends.push(end),
  };
  const ui = render(<GraphRunApp driver={driver} diagram={diagram} places={locateBoxes(diagram, nodes)} color={false} spinnerMs={0} onLeave={() => void (left += 1)} />);
  const frame = (): string => ui.lastFrame() ?? '';
  const waitFor = (pattern: RegExp, what: string): Promise<void> => until(() => pattern.test(frame()), what);
  return { ui, frame, waitFor, ends, left: () => left };
}

describe('the live graph view (GraphRunApp)', () => {
  test('draws the graph, stops at the question, takes the typed answer and runs on to the end', async () => {
    const view = await mount(reviewGraph());
    await view.waitFor(/waiting for your answer/, 'the interrupt');
    const asking = view.frame();
    // The drawing (compact boxes): 24 rows leave room for a window of it, around the asking node.
    for (const label of ['START', 'draft', 'check', 'publish']) assert.match(asking, new RegExp(`│ *${label} *│`), label);
    assert.match(asking, /↕ 1 rows above, 3 below/);
    // The node strip: draft done, check asking, publish not yet run.
    assert.match(asking, /✓ draft \d+ms {2}\? check {2}○ publish/);
    assert.match(asking, /\? check Publish the draft\?/);
    assert.match(asking, /graph review · step 2 · 0 tokens · \$0\.0000 · waiting for your answer/);
    // Keys one by one, then the rest in one chunk (fast typing, a paste, tmux send-keys).
    await press(view.ui.stdin, 'y', 'x', '\u007f', `es${ENTER}`);
    await view.waitFor(/completed/, 'the run to end');
    const done = view.frame();
    assert.match(done, /✓ draft \d+ms {2}✓ check \d+ms {2}✓ publish \d+ms/);
    assert.match(done, /Published the tide poem\./);
    assert.match(done, /graph review · step 3 · 42 tokens · \$\d+\.\d{4} · completed/);
    assert.doesNotMatch(done, /Publish the draft\?/, 'the question is gone');
    assert.equal(view.ends.length, 1);
    const end = view.ends[0];
    assert.ok(end?.kind === 'result');
    assert.equal(end.result.status, 'completed');
    assert.deepEqual(end.result.state.history, ['draft', 'check', 'publish']);
    assert.equal(end.result.state.data.__last_output__, 'Published the tide poem.');
  });

  test('Esc at the question leaves the run waiting (no end reported, onLeave called once)', async () => {
    const view = await mount(reviewGraph());
    await view.waitFor(/waiting for your answer/, 'the interrupt');
    await press(view.ui.stdin, '\u001b');
    assert.equal(view.left(), 1);
    assert.equal(view.ends.length, 0);
  });

  test('a failing node turns red in the strip and the run ends failed with its message', async () => {
    const graph = new AgentGraph({ name: 'broken' })
      .addNode('fetch', () => 'ok', { next: 'parse' })
      .addNode('parse', () => {
        throw new Error('bad input \u001b[2J');
      })
      .setEntry('fetch');
    const view = await mount(graph);
    await view.waitFor(/failed/, 'the failure');
    assert.match(view.frame(), /✓ fetch \d+ms {2}x parse/);
    assert.match(view.frame(), /failed: node "parse" failed.*bad input/);
    assert.doesNotMatch(view.frame(), /\u001b\[2J/);
    assert.equal(view.ends[0]?.kind, 'error');
  });
});
