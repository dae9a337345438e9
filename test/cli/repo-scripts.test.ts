import assert from 'node:assert/strict';
import { accessSync, constants, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../support/cli-build.js';

test('the launcher and the CI script are executable scripts with a shebang', { skip: process.platform === 'win32' && 'no executable bit on Windows' }, () => {
  for (const [file, shebang] of [['bin/agentlib.js', '#!/usr/bin/env node'], ['.ci/run', '#!/usr/bin/env bash']] as const) {
    const path = join(repoRoot, file);
    accessSync(path, constants.X_OK);
    assert.equal(readFileSync(path, 'utf8').split('\n')[0], shebang, file);
  }
});

test('.ci/run fails fast, installs with npm ci and runs exactly the README test command', () => {
  const script = readFileSync(join(repoRoot, '.ci', 'run'), 'utf8');
  assert.match(script, /^set -euo pipefail$/m);
  const commands = script.split('\n').map((line) => line.trim()).filter((line) => /^npm /.test(line));
  assert.deepEqual(commands, ['npm ci', 'npm test']);
  assert.match(readFileSync(join(repoRoot, 'README.md'), 'utf8'), /^npm test\b/m);
});
