import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseAgentConfig } from '../../../lib/config/parse-agent-config.js';
import { brief, issuesOf, tempProject, toolsSource } from './project.js';

describe('agent YAML: tool sources', () => {
  let dir = '';
  let outside = '';
  const cleanups: (() => Promise<void>)[] = [];
  before(async () => {
    const project = await tempProject({
      'agent/tools.ts': toolsSource('lookup_customer'),
      'agent/lib/more.mjs': toolsSource('more'),
      'agent/notes.txt': 'not a module',
      'agent/node_modules/acme-tools/package.json': JSON.stringify({ name: 'acme-tools', type: 'module', exports: { '.': { import: './main.mjs' } } }),
      'agent/node_modules/acme-tools/main.mjs': toolsSource('acme'),
      'secret/tools.ts': toolsSource('secret'),
    });
    cleanups.push(project.cleanup);
    dir = join(project.dir, 'agent');
    outside = join(project.dir, 'secret');
    await symlink(join(outside, 'tools.ts'), join(dir, 'linked.ts'));
    await mkdir(join(dir, 'empty'));
    await writeFile(join(dir, 'plain.js'), '');
  });
  after(async () => Promise.all(cleanups.map((cleanup) => cleanup())));

  const parse = (yaml: string) => parseAgentConfig(yaml, { baseDir: dir });

  test('files, file#export, directories and packages resolve to absolute paths / package entries', () => {
    const config = parse('tools:\n  - ./tools.ts#lookup_customer\n  - tools.ts\n  - ./lib/\n  - acme-tools\n  - acme-tools#acme\n');
    assert.deepEqual(config.tools, [
      { kind: 'file', source: './tools.ts#lookup_customer', path: join(dir, 'tools.ts'), exportName: 'lookup_customer', position: { line: 2, col: 5 } },
      { kind: 'file', source: 'tools.ts', path: join(dir, 'tools.ts'), position: { line: 3, col: 5 } },
      { kind: 'directory', source: './lib/', path: join(dir, 'lib'), position: { line: 4, col: 5 } },
      { kind: 'package', source: 'acme-tools', specifier: 'acme-tools', entry: join(dir, 'node_modules/acme-tools/main.mjs'), position: { line: 5, col: 5 } },
      { kind: 'package', source: 'acme-tools#acme', specifier: 'acme-tools', entry: join(dir, 'node_modules/acme-tools/main.mjs'), exportName: 'acme', position: { line: 6, col: 5 } },
    ]);
  });

  test('paths escaping the config directory are refused, with positions', () => {
    const issues = issuesOf(() => parse(`tools:\n  - ../secret/tools.ts\n  - ${join(outside, 'tools.ts')}\n  - ./lib/../../secret/tools.ts#secret\n`));
    assert.deepEqual(issues.map((i) => [i.path, i.line, i.col]), [['tools[0]', 2, 5], ['tools[1]', 3, 5], ['tools[2]', 4, 5]]);
    for (const issue of issues) assert.match(issue.message, /is outside the config file's directory/);
  });

  test('a symbolic link pointing outside the config directory is refused', () => {
    const [issue] = issuesOf(() => parse('tools:\n  - ./linked.ts\n'));
    assert.match(issue?.message ?? '', /symbolic link to .*secret.*outside/);
    assert.deepEqual([issue?.line, issue?.col], [2, 5]);
  });

  test('a missing file suggests the closest name; the export is kept in the suggestion', () => {
    assert.deepEqual(brief(issuesOf(() => parse('tools:\n  - ./tool.ts#lookup_customer\n'))), [
      `2:5 tool source "./tool.ts" does not exist (resolved to ${join(dir, 'tool.ts')}) → ./tools.ts#lookup_customer`,
    ]);
  });

  test('other unusable entries: a directory with #export, a non-module file, a bad export name, a missing package, a dotted path', () => {
    const issues = issuesOf(() => parse('tools:\n  - ./lib#more\n  - ./notes.txt\n  - ./tools.ts#not-valid\n  - missing-tools-pkg\n  - tools.lookup_customer\n  - 42\n'));
    assert.deepEqual(brief(issues), [
      '2:5 "./lib" is a directory; "#more" needs a module file',
      '3:5 "./notes.txt" is not a module the tool loader can import (expected .js, .mjs, .cjs, .ts, .mts, .cts)',
      '4:5 invalid export name "not-valid" in tool reference "./tools.ts#not-valid"',
      `5:5 cannot find the tool package "missing-tools-pkg" (from ${dir})`,
      `6:5 cannot find the tool package "tools.lookup_customer" (from ${dir})`,
      '7:5 "tools[5]" must be a string; got number 42',
    ]);
    assert.equal(issues[4]?.hint, 'module references are "path#export", e.g. ./tools.ts#lookup_customer');
  });

  test('relative paths resolve against the baseDir (the YAML file directory)', () => {
    const config = parseAgentConfig('tools: [./tools.ts]\n', { baseDir: dir });
    assert.equal(config.tools[0]?.kind === 'file' ? config.tools[0].path : '', join(dir, 'tools.ts'));
    assert.equal(issuesOf(() => parseAgentConfig('tools: [./tools.ts]\n', { baseDir: outside + '-nope' })).length, 1);
  });
});
