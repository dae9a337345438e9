import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { execa } from 'execa';
import { listTemplates } from '../../lib/config/templates.js';
import { binPath, ensureCliBuilt, repoRoot } from '../support/cli-build.js';
import { commandArgs, EXPECTED_TOOLS, keylessEnv, toolNames, type RunDocument } from './offline-run.js';

/** The `npx agentlib run …` command of a template README's offline section. */
function readmeCommand(template: string): string {
  const readme = readFileSync(join(repoRoot, 'templates', template, 'README.md'), 'utf8');
  const line = /```sh\n(npx agentlib run [^\n]*--replay[^\n]*)\n```/.exec(readme)?.[1];
  assert.ok(line, `templates/${template}/README.md shows an offline run`);
  return line;
}

describe('template cassettes: every template runs offline, by name, as its README says', () => {
  before(() => ensureCliBuilt());

  test('every template has a cassette, a PROVENANCE.md that says no real model recorded it, and an expected run', () => {
    const templates = listTemplates();
    assert.deepEqual([...templates, 'blank'].sort(), Object.keys(EXPECTED_TOOLS).sort());
    for (const folder of [...templates, '_blank']) {
      assert.ok(existsSync(join(repoRoot, 'templates', folder, 'cassette.jsonl')), `${folder}/cassette.jsonl`);
      const provenance = readFileSync(join(repoRoot, 'templates', folder, 'PROVENANCE.md'), 'utf8');
      assert.match(provenance, /No real model recorded this cassette/);
      assert.match(provenance, /scripts\/record-template-cassettes\.ts/);
    }
  });

  for (const [template, expected] of Object.entries(EXPECTED_TOOLS).filter(([name]) => name !== 'blank')) {
    test(`${template}: the README's offline command exits 0 with no API key and makes the expected tool calls`, async () => {
      const args = commandArgs(readmeCommand(template));
      assert.deepEqual(args.slice(0, 2), ['run', template], 'runs the template by name');
      const run = await execa(process.execPath, [binPath, ...args, '--output-format', 'json', '--no-trace'], { cwd: repoRoot, reject: false, extendEnv: false, env: keylessEnv() });
      assert.equal(run.exitCode, 0, run.stderr);
      const doc = JSON.parse(run.stdout) as RunDocument;
      assert.equal(doc.status, 'completed');
      assert.deepEqual(toolNames(doc), expected);
      assert.ok(doc.content.length > 0);
      assert.doesNotMatch(run.stderr, /not used/, 'the whole cassette is replayed');
    });
  }
});
