import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { GraphExecutionError } from '../../../lib/core/errors/graph-execution-error.js';
import { AgentGraph, END, MergePolicy, graphToLayoutMermaid } from '../../../lib/graph/index.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';

/** The expected drawings below are beautiful-mermaid 1.1.3's layout of graphToLayoutMermaid. */
const drawing = (text: string): string => text.replace(/^\n/, '');

function agent(name: string): Agent {
  return new Agent({ name, provider: new ScriptedProvider({ replies: ['x'] }) });
}

const chain = (): AgentGraph => new AgentGraph({ name: 'chain' }).addNode('research', agent('research'), { next: 'write' }).addNode('write', () => 'w').setEntry('research');
const loop = (): AgentGraph =>
  new AgentGraph({ name: 'loop' })
    .addNode('draft', () => 'd', { next: 'review' })
    .addNode('review', () => 'v', { interruptBefore: true })
    .addConditionalEdge('review', () => END, { targets: ['draft', END] })
    .setEntry('draft');

describe("visualize('ascii'): boxes and arrows laid out by beautiful-mermaid", () => {
  test('a chain: an agent is a square box, a function a rounded one, a node without a successor leads to END', async () => {
    assert.equal(await chain().visualize('ascii'), drawing(CHAIN));
  });

  test('a conditional edge is dashed; a back edge loops round; ⏸ marks a node that asks first', async () => {
    assert.equal(await loop().visualize('ascii'), drawing(LOOP));
  });

  test('a parallel group is a titled box; the arrows fan out to each member and back in', async () => {
    const graph = new AgentGraph({ name: 'par' })
      .addNode('plan', () => 'p', { next: 'team' })
      .addParallelNodes('team', { left: () => 'l', right: () => 'r' }, { merge: MergePolicy.APPEND, next: 'sum' })
      .addNode('sum', () => 's')
      .setEntry('plan');
    assert.equal(await graph.visualize('ascii'), drawing(PARALLEL));
  });

  test('a subgraph is a box around its own start, nodes and end; the parent enters at start and leaves at end', async () => {
    const child = new AgentGraph({ name: 'child' }).addNode('check', () => 'c').setEntry('check');
    const graph = new AgentGraph({ name: 'sub' }).addSubgraph('rev', child, { next: 'done' }).addNode('done', () => 'd').setEntry('rev');
    assert.equal(await graph.visualize('ascii'), drawing(SUBGRAPH));
  });

  test("charset 'ascii' keeps to ASCII characters (the ⏸ mark becomes !ask)", async () => {
    const text = await loop().visualize('ascii', { charset: 'ascii' });
    assert.equal(text, drawing(ASCII));
    assert.match(text, /^[\x20-\x7e\n]*$/);
  });

  test('a graph of ten nodes with a router, a group and a subgraph stays within 80 columns', async () => {
    const child = new AgentGraph({ name: 'child' }).addNode('check', () => 'c', { next: 'fix' }).addNode('fix', () => 'f').setEntry('check');
    const graph = new AgentGraph({ name: 'wide' })
      .addNode('intake', () => 'i', { next: 'plan' })
      .addNode('plan', agent('planner'))
      .addConditionalEdge('plan', () => 'team', { targets: ['team', 'ask', END] })
      .addNode('ask', () => 'a', { interruptBefore: true, next: 'plan' })
      .addParallelNodes('team', { research: () => 'r', outline: () => 'o', sources: () => 's' }, { merge: MergePolicy.APPEND, next: 'review' })
      .addSubgraph('review', child, { next: 'publish' })
      .addNode('publish', agent('publisher'))
      .setEntry('intake');
    const text = await graph.visualize('ascii');
    const width = Math.max(...text.split('\n').map((line) => [...line].length));
    assert.ok(width <= 80, `${width} columns:\n${text}`);
    for (const name of ['intake', 'plan', 'ask ⏸', 'research', 'outline', 'sources', 'check', 'fix', 'publish', 'START', 'END']) assert.ok(text.includes(name), name);
  });

  test('visualize refuses a format it does not draw', async () => {
    await assert.rejects(chain().visualize('svg' as 'ascii'), (e: unknown) => GraphExecutionError.isInstance(e) && /unknown format "svg"/.test(e.message));
  });
});

describe('graphToLayoutMermaid: the Mermaid text the ASCII layout reads', () => {
  test('edges into and out of a group go to its members; into a subgraph its start, out of it its end; implicit END', () => {
    const child = new AgentGraph({ name: 'child' }).addNode('check', () => 'c').setEntry('check');
    const graph = new AgentGraph({ name: 'g' })
      .addNode('plan', () => 'p', { next: 'team' })
      .addParallelNodes('team', { a: () => 'A', b: () => 'B' }, { next: 'rev' })
      .addSubgraph('rev', child)
      .addConditionalEdge('rev', () => END)
      .setEntry('plan');
    const edges = graphToLayoutMermaid(graph.definition())
      .split('\n')
      .filter((line) => /-->|-\.->/.test(line))
      .map((line) => line.trim());
    assert.deepEqual(edges, [
      '__start__ --> plan',
      'rev__check --> rev____end__',
      'rev____start__ --> rev__check',
      'plan --> team__a',
      'plan --> team__b',
      'team__a --> rev____start__',
      'team__b --> rev____start__',
      'rev____end__ -.-> rev__route',
    ]);
  });
});

const CHAIN = `
◯──────────◯
│          │
│  START   │
│          │
◯─────┬────◯
      │
      │
      ▼
┌──────────┐
│          │
│ research │
│          │
└─────┬────┘
      │
      │
      ▼
╭──────────╮
│          │
│  write   │
│          │
╰─────┬────╯
      │
      │
      ▼
◯──────────◯
│          │
│   END    │
│          │
◯──────────◯
`;

const LOOP = `
◯──────────◯
│          │
│  START   │
│          │
◯─────┬────◯
      │
      ├┄┄┄┄┄┄┐
      ▼      ┆
╭──────────╮ ┆
│          │ ┆
│  draft   │ ┆
│          │ ┆
╰─────┬────╯ ┆
      │      ┆
      │      ┆
      ▼      ┆
╭──────────╮ ┆
│          │ ┆
│ review ⏸ │ ┆
│          │ ┆
╰──────────╯ ┆
      ┆      ┆
      ├┄┄┄┄┄┄┘
      ▼
◯──────────◯
│          │
│   END    │
│          │
◯──────────◯
`;

const PARALLEL = `
  ◯───────◯
  │       │
  │ START │
  │       │
  ◯───┬───◯
      │
      │
      ▼
  ╭───────╮
  │       │
  │  plan ├────────┐
  │       │        │
  ╰───┬───╯        │
      │            │
      │            │
      │            │
┌─────┼────────────┼─────┐
│     team ‖ append│     │
│     │            │     │
│     ▼            ▼     │
│ ╭───────╮    ╭───────╮ │
│ │       │    │       │ │
│ │  left │    │ right │ │
│ │       │    │       │ │
│ ╰───┬───╯    ╰───┬───╯ │
│     │            │     │
└─────┼────────────┼─────┘
      ▼            │
  ╭───────╮        │
  │       │        │
  │  sum  │◄───────┘
  │       │
  ╰───┬───╯
      │
      │
      ▼
  ◯───────◯
  │       │
  │  END  │
  │       │
  ◯───────◯
`;

const SUBGRAPH = `
  ◯───────◯
  │       │
  │ START │
  │       │
  ◯───┬───◯
      │
      │
      │
┌─────┼─────┐
│    rev    │
│     │     │
│     ▼     │
│ ◯───────◯ │
│ │       │ │
│ │ start │ │
│ │       │ │
│ ◯───┬───◯ │
│     │     │
│     │     │
│     ▼     │
│ ╭───────╮ │
│ │       │ │
│ │ check │ │
│ │       │ │
│ ╰───┬───╯ │
│     │     │
│     │     │
│     ▼     │
│ ◯───────◯ │
│ │       │ │
│ │  end  │ │
│ │       │ │
│ ◯───┬───◯ │
│     │     │
└─────┼─────┘
      ▼
  ╭───────╮
  │       │
  │  done │
  │       │
  ╰───┬───╯
      │
      │
      ▼
  ◯───────◯
  │       │
  │  END  │
  │       │
  ◯───────◯
`;

const ASCII = `
o-------------o
|             |
|    START    |
|             |
o-------------o
       |
       +........+
       v        :
.-------------. :
|             | :
|    draft    | :
|             | :
'-------------' :
       |        :
       |        :
       v        :
.-------------. :
|             | :
| review !ask | :
|             | :
'-------------' :
       :        :
       +........+
       v
o-------------o
|             |
|     END     |
|             |
o-------------o
`;
