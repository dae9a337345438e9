import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { checkConfigFile } from '../../../commands/doctor/config-file.js';
import { checkTools } from '../../../commands/doctor/tools.js';
import { doctorExitCode } from '../../../commands/doctor.js';
import { repoRoot } from '../../support/cli-build.js';

describe('doctor: the agent tools check imports the tools as run does', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agentlib-doctor-tools-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  let files = 0;
  async function check(tools: string): Promise<Awaited<ReturnType<typeof checkTools>>> {
    // a new file each time: an imported module stays cached under its URL
    const file = `tools-${++files}.mjs`;
    writeFileSync(join(dir, 'agent.yaml'), `name: a\nprovider: openai\ntools:\n  - ./${file}\n`);
    writeFileSync(join(dir, file), tools);
    const config = await checkConfigFile({ cwd: dir, env: {} });
    assert.equal(config.result.status, 'ok', 'the file itself is valid');
    return checkTools(config.config, config.label ?? '');
  }

  test('tools that load: ok, with their names', async () => {
    const lib = pathToFileURL(join(repoRoot, 'lib', 'tools', 'tool.ts')).href;
    const result = await check(`import { tool } from '${lib}';\nexport const echo = tool({ name: 'echo', description: 'Echo the text back', parameters: { type: 'object', properties: {} }, execute: () => 'hi' });\n`);
    assert.equal(result.status, 'ok', result.detail);
    assert.equal(result.detail, '1 tool loaded: echo');
  });

  test('a module that exports no tool: fail, as run would', async () => {
    const result = await check("export const echo = { name: 'echo' };\n");
    assert.equal(result.status, 'fail');
    assert.match(result.detail, /No tools are exported/);
  });

  test('a tool module importing a package that is not installed: fail, exit 2, with an install hint', async () => {
    const result = await check("import 'surely-not-installed-pkg';\nexport const x = 1;\n");
    assert.equal(result.status, 'fail');
    assert.equal(result.required, true);
    assert.match(result.detail, /surely-not-installed-pkg/);
    assert.match(result.hint ?? '', /npm install surely-not-installed-pkg/);
    assert.equal(doctorExitCode([result]), 2);
  });

  test('agentlib itself not installed: the hint says how to install it from a checkout or a tarball, not from the registry', async () => {
    const result = await check("import { tool } from 'agentlib';\nexport const x = tool;\n");
    assert.equal(result.status, 'fail');
    assert.match(result.hint ?? '', /from a checkout or a packed tarball/);
    assert.doesNotMatch(result.hint ?? '', /npm install agentlib\b/);
  });

  test('no valid agent file: skipped', async () => {
    assert.equal((await checkTools(undefined, '')).status, 'skip');
  });
});
