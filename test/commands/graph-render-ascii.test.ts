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
});
