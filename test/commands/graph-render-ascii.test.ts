import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureCliBuilt } from '../support/cli-build.js';
import { agentlib, cliEnv } from './run-helpers.js';

const dir = await mkdtemp(join(tmpdir(), 'agentlib-graph-ascii-'));
after(() => rm(dir, { recursive: true, force: true }));
await writeFile(join(dir, 'nodes.mjs'), 'export function step() { return "ok"; }\n');
await writeFile(join(dir, 'pair.graph.yaml'), `kind: graph
name: pair
entry: draft
nodes:
  draft: { function: ./nodes.mjs#step, next: publish }
  publish: { function: ./nodes.mjs#step }
`);

await writeFile(join(dir, 'writer.yaml'), 'name: writer\nprovider: openai\nsystem_prompt: You write.\n');
await writeFile(join(dir, 'agents.graph.yaml'), `kind: graph
name: agents
entry: write
nodes:
  write: { agent: ./writer.yaml }
`);

describe('agentlib graph render --format ascii (built binary)', () => {
  before(() => ensureCliBuilt());

  test('prints the boxes-and-arrows drawing of the graph file', async () => {
    const result = await agentlib(['graph', 'render', 'pair.graph.yaml', '--format', 'ascii'], { cwd: dir, env: cliEnv(undefined) });
    assert.equal(result.exitCode, 0, result.stderr);
    const lines = result.stdout.split('\n');
    const row = (label: string): number => lines.findIndex((line) => new RegExp(`^│ +${label} +│$`).test(line));
    // START above draft above publish above END, each a box, joined by arrows (▼) in between.
    const rows = ['START', 'draft', 'publish', 'END'].map(row);
    assert.ok(rows.every((r, i) => r > 0 && (i === 0 || r > (rows[i - 1] as number))), `${rows.join(',')}\n${result.stdout}`);
    for (let i = 1; i < rows.length; i += 1) assert.ok(lines.slice(rows[i - 1], rows[i]).some((line) => line.trim() === '▼'), `an arrow into ${i}`);
  });

  test('a graph of agent nodes renders with no API key: drawing never creates a provider', async () => {
    const env = { ...cliEnv(undefined) };
    delete env['OPENAI_API_KEY'];
    delete env['OPENAI_BASE_URL'];
    for (const format of ['ascii', 'mermaid', 'json']) {
      const result = await agentlib(['graph', 'render', 'agents.graph.yaml', '--format', format], { cwd: dir, env });
      assert.equal(result.exitCode, 0, `${format}: ${result.stderr}`);
      assert.match(result.stdout, /write/, format);
    }
  });
});
