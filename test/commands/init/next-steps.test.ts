import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { agentlibInstall } from '../../../commands/init/agentlib-install.js';
import { installStep, nextSteps } from '../../../commands/init/next-steps.js';
import { repoRoot } from '../../support/cli-build.js';

const base = { dirLabel: 'my-agent', template: 'data_analyst', provider: 'openai', model: 'gpt-4o-mini' } as const;

describe('init next steps', () => {
  test('without agentlib in the project: install it from the checkout init runs from, never from the registry', () => {
    const steps = nextSteps({ ...base, install: { resolvable: false, checkout: '/home/me/src/agentlib' } });
    assert.equal(steps[0], 'cd my-agent');
    assert.equal(steps[1], 'npm install /home/me/src/agentlib   # agentlib is not on the npm registry: install it from a checkout or a packed tarball');
    assert.ok(!steps.some((step) => /npm install agentlib\b/.test(step)), 'no registry install');
  });

  test('from an installed copy (no checkout known): a checkout or the tarball npm pack makes', () => {
    assert.match(installStep({ resolvable: false }) ?? '', /^npm install <agentlib checkout, or the agentlib-\*\.tgz `npm pack` makes in it> {3}#/);
    assert.equal(installStep({ resolvable: true, checkout: '/x' }), undefined);
  });

  test('the offline run of the cassette comes before the key setup, then doctor and the live run', () => {
    const steps = nextSteps({ ...base, dirLabel: '.', install: { resolvable: true }, offlinePrompt: 'Which five products brought in the most revenue?' });
    assert.deepEqual(steps, [
      'agentlib run agent.yaml "Which five products brought in the most revenue?" --replay cassette.jsonl   # offline, no API key: a scripted run (PROVENANCE.md)',
      'agentlib eval run eval.yaml --replay cassette.jsonl   # its eval suite, offline (docs/evals.md)',
      'export OPENAI_API_KEY=sk-…',
      'agentlib doctor   # checks the setup, and that the tools load',
      'agentlib run agent.yaml "Which five products brought in the most revenue?"',
    ]);
    const reviewer = nextSteps({ ...base, template: 'code_reviewer', dirLabel: '.', install: { resolvable: true } });
    assert.match(reviewer[0] ?? '', /--replay cassette\.jsonl --var root=fixtures\/sample-app {3}#/);
    // a template with per-case eval cassettes: its eval suite replays that folder
    const perCase = nextSteps({ ...base, dirLabel: '.', install: { resolvable: true }, evalReplay: 'eval-cassettes' });
    assert.equal(perCase[1], 'agentlib eval run eval.yaml --replay eval-cassettes   # its eval suite, offline (docs/evals.md)');
  });

  test('agentlibInstall: resolvable where node_modules holds agentlib; a checkout is a root outside node_modules', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentlib-install-'));
    try {
      mkdirSync(join(dir, 'project', 'sub'), { recursive: true });
      assert.deepEqual(agentlibInstall(join(dir, 'project', 'sub'), repoRoot), { resolvable: false, checkout: repoRoot });
      mkdirSync(join(dir, 'project', 'node_modules'));
      symlinkSync(repoRoot, join(dir, 'project', 'node_modules', 'agentlib'), 'dir');
      assert.equal(agentlibInstall(join(dir, 'project', 'sub'), repoRoot).resolvable, true);
      assert.equal(agentlibInstall(dir, join(dir, 'node_modules', 'agentlib')).checkout, undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
