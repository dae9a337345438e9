import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureCliBuilt } from '../support/cli-build.js';
import { agentlib, cliEnv } from './run-helpers.js';

describe('agentlib run: entity_memory / knowledge_graph / knowledge_memory settings (built binary)', () => {
  let dir: string;
  before(() => {
    ensureCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'agentlib-memory-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('bad values: exit 2, each at file:line:col, nothing opened or written', async () => {
    const file = join(dir, 'agent.yaml');
    writeFileSync(file, 'name: bad\nprovider: openai\nentity_memory:\n  max_entities: 0\nknowledge_graph:\n  min_confidence: high\nknowledge_memory:\n  store: s3\n');
    const run = await agentlib(['run', file, 'hi'], { cwd: dir, env: cliEnv(undefined) });
    assert.equal(run.exitCode, 2, run.stderr);
    assert.match(run.stderr, /agent\.yaml:4:\d+: .*entity_memory\.max_entities/);
    assert.match(run.stderr, /agent\.yaml:6:\d+: .*knowledge_graph\.min_confidence/);
    assert.match(run.stderr, /agent\.yaml:8:\d+: .*knowledge_memory\.store.*file, sqlite, memory/);
    assert.equal(existsSync(join(dir, '.agentlib', 'agentlib.db')), false);
    assert.equal(existsSync(join(dir, '.agentlib', 'memory')), false);
  });
});
