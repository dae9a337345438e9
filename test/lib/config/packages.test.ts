import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadAgent } from '../../../lib/config/load-agent.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { rejectsWithConfigFileError, tempProject, toolsSource } from './project.js';

describe('agent YAML: tools from installed packages', () => {
  let dir = '';
  let cleanup = async (): Promise<void> => {};
  before(async () => {
    const project = await tempProject({
      'node_modules/esm-tools/package.json': JSON.stringify({ name: 'esm-tools', type: 'module', exports: { '.': { import: './main.mjs' } } }),
      'node_modules/esm-tools/main.mjs': toolsSource('find_book'),
      'node_modules/@acme/tools/package.json': JSON.stringify({ name: '@acme/tools', type: 'module', exports: { './search': './lib/search.mjs' } }),
      'node_modules/@acme/tools/lib/search.mjs': toolsSource('web_search', 'image_search'),
      'agents/shop/agent.yaml': 'provider: openai\ntools:\n  - esm-tools\n  - "@acme/tools/search#web_search"\n',
      'agents/shop/typo.yaml': 'provider: openai\ntools:\n  - "@acme/tools/search#web_serch"\n',
    });
    dir = project.dir;
    cleanup = project.cleanup;
  });
  after(async () => cleanup());

  test('packages resolve from the YAML directory upwards (node_modules of an ancestor), outside the confinement rule', async () => {
    const agent = await loadAgent(join(dir, 'agents/shop/agent.yaml'), { provider: new ScriptedProvider() });
    assert.deepEqual(agent.tools.map((t) => t.name), ['find_book', 'web_search']);
  });

  test('an unknown export of a package suggests the closest one, at the entry', async () => {
    const error = await rejectsWithConfigFileError(loadAgent(join(dir, 'agents/shop/typo.yaml'), { provider: new ScriptedProvider() }));
    assert.deepEqual(error.issues.map((i) => [i.line, i.col, i.suggestion]), [[3, 5, 'web_search']]);
  });
});
