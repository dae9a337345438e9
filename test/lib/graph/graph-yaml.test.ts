import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ConfigFileError } from '../../../lib/core/errors/config-file-error.js';
import { loadGraph } from '../../../lib/graph/yaml/load-graph.js';
import { parseGraphConfig } from '../../../lib/graph/yaml/parse-graph-config.js';

const dir = await mkdtemp(join(tmpdir(), 'agentlib-graph-yaml-'));
after(() => rm(dir, { recursive: true, force: true }));

await writeFile(
  join(dir, 'nodes.mjs'),
  `export function plan(state) { return { data: { topics: ['a', 'b'] } }; }
export function left() { return { data: { side: 'left' }, output: 'L' }; }
export function right() { return { data: { side: 'right' }, output: 'R' }; }
export function publish(state) { return 'published ' + state.data.__human_input__; }
export function route(state) { return state.data.topics.length > 1 ? 'team' : 'END'; }
`,
);

describe('graph YAML (kind: graph)', () => {
  test('a file with function nodes, a router, a parallel group and interrupt_before runs and resumes', async () => {
    const file = join(dir, 'ok.graph.yaml');
    await writeFile(
      file,
      `kind: graph
name: yaml-demo
entry: plan
nodes:
  plan:
    function: ./nodes.mjs#plan
  team:
    parallel:
      l: { function: ./nodes.mjs#left }
      r: { function: ./nodes.mjs#right }
    merge: append
    next: publish
  publish:
    function: ./nodes.mjs#publish
    interrupt_before: Publish now?
conditional_edges:
  - from: plan
    router: ./nodes.mjs#route
    targets: [team, END]
`,
    );
    const graph = await loadGraph(file);
    assert.equal(graph.name, 'yaml-demo');
    const first = await graph.run('go');
    assert.equal(first.interrupts[0]?.prompt, 'Publish now?');
    assert.deepEqual(first.state.data.side, ['left', 'right']);
    const done = await graph.resume(first.interruptId as string, 'yes');
    assert.equal(done.content, 'published yes');
    assert.match(graph.toMermaid(), /plan -.->\|"plan"\| team/);
  });

  test('every problem at once, with file:line:col and did-you-mean', () => {
    const text = `kind: graph
entry: plna
nodes:
  plan:
    function: ./nodes.mjs#plan
    nxt: team
  both:
    function: ./nodes.mjs#left
    agent: a.yaml
  team:
    parallel:
      l: { function: ./nodes.mjs#left }
    merge: sideways
edges:
  - from: plan
    to: tema
`;
    assert.throws(() => parseGraphConfig(text, { source: 'bad.graph.yaml', baseDir: dir }), (e: unknown) => {
      assert.ok(e instanceof ConfigFileError);
      const text = e.message;
      assert.match(text, /bad\.graph\.yaml:6:5: .*unknown key "nxt".*next/s);
      assert.match(text, /bad\.graph\.yaml:7:3: .*node "both" has agent and function|bad\.graph\.yaml:8:5: .*node "both" has agent and function/s);
      assert.match(text, /merge.*must be one of last_wins, first_wins, append/);
      assert.match(text, /bad\.graph\.yaml:2:8: .*the entry "plna" is not a node.*plan/s);
      assert.match(text, /bad\.graph\.yaml:16:9: .*the edge target "tema" is not a node.*team/s);
      return true;
    });
  });

  test('kind is required and must be graph', () => {
    assert.throws(() => parseGraphConfig('entry: a\nnodes:\n  a: { function: ./n.mjs#a }\n'), /missing the required key "kind"/);
  });
});
