import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { repoRoot } from '../support/cli-build.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlib-warning-guard-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs one test file through scripts/run-tests.mjs, as `npm test` does. */
function runTests(name: string, body: string): { status: number | null; output: string } {
  const file = join(dir, name);
  writeFileSync(file, body);
  // A test runner inside a test: without this the inner one thinks it is a test file of the outer one.
  const env = { ...process.env };
  delete env['NODE_TEST_CONTEXT'];
  const run = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'run-tests.mjs'), file], { cwd: repoRoot, env, encoding: 'utf8', timeout: 60_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('scripts/warning-guard.mjs (loaded into every test process by scripts/run-tests.mjs)', () => {
  test('a process warning no test captured fails the test file, naming the warning', () => {
    const run = runTests('leaks.test.ts', "import { test } from 'node:test';\ntest('leaks', () => { process.emitWarning('old API', 'DeprecationWarning'); });\n");
    assert.equal(run.status, 1, run.output);
    assert.match(run.output, /unexpected process warning in a test \(DeprecationWarning: old API\); a test that expects it captures it with test\/support\/capture-warnings\.ts/);
  });

  test('a warning captured with captureWarnings is neither printed nor a failure', () => {
    const helper = pathToFileURL(join(repoRoot, 'test', 'support', 'capture-warnings.ts')).href;
    const run = runTests(
      'captures.test.ts',
      [
        "import assert from 'node:assert/strict';",
        "import { test } from 'node:test';",
        `import { captureWarnings } from '${helper}';`,
        "test('captures', async () => {",
        "  const { warnings } = await captureWarnings(() => process.emitWarning('old API', 'DeprecationWarning'));",
        "  assert.deepEqual(warnings, [{ message: 'old API', type: 'DeprecationWarning' }]);",
        '});',
        '',
      ].join('\n'),
    );
    assert.equal(run.status, 0, run.output);
    assert.doesNotMatch(run.output, /Warning/);
  });
});
