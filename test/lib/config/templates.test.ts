import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { findPackageRoot } from '../../../lib/config/package-root.js';
import { listTemplates, loadTemplate, templatePath, templatesDirectory } from '../../../lib/config/templates.js';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { tempProject, toolsSource } from './project.js';

describe('templates', () => {
  let templatesDir = '';
  let cleanup = async (): Promise<void> => {};
  before(async () => {
    const project = await tempProject({
      'templates/customer_support/agent.yaml': 'name: customer_support\nsystem_prompt: Help.\ntools: [./tools.ts]\n',
      'templates/customer_support/tools.ts': toolsSource('lookup_order'),
      'templates/data_analyst/agent.yaml': 'name: data_analyst\nprovider: openai\n',
      'templates/not_a_template/readme.md': 'no agent.yaml here',
    });
    templatesDir = join(project.dir, 'templates');
    cleanup = project.cleanup;
  });
  after(async () => cleanup());

  test('listTemplates lists folders holding an agent.yaml, sorted', () => {
    assert.deepEqual(listTemplates({ templatesDir }), ['customer_support', 'data_analyst']);
    assert.deepEqual(listTemplates({ templatesDir: join(templatesDir, 'missing') }), []);
  });

  test('loadTemplate builds the agent with the given provider', async () => {
    const agent = await loadTemplate('customer_support', { templatesDir, provider: new ScriptedProvider({ name: 'fake' }) });
    assert.equal(agent.name, 'customer_support');
    assert.equal(agent.providerName, 'fake');
    assert.deepEqual(agent.tools.map((t) => t.name), ['lookup_order']);
  });

  test('an unknown name is a ConfigurationError with a did-you-mean over the names found', () => {
    assert.throws(
      () => templatePath('customer_suport', { templatesDir }),
      (e: unknown) =>
        ConfigurationError.isInstance(e) && e.suggestion === 'customer_support' && e.message === 'unknown template "customer_suport" — did you mean "customer_support"? (available: customer_support, data_analyst)',
    );
    assert.throws(() => templatePath('../data_analyst', { templatesDir }), (e: unknown) => ConfigurationError.isInstance(e) && e.suggestion === 'data_analyst');
  });

  test('the package root is found from lib/config (tsx) and from a dist/lib/config path', () => {
    const root = findPackageRoot();
    assert.ok(root !== undefined && existsSync(join(root, 'package.json')));
    assert.equal(templatesDirectory(), join(root, 'templates'));
    assert.equal(findPackageRoot(pathToFileURL(join(root, 'dist/lib/config/templates.js')).href), root);
    assert.equal(findPackageRoot(join(root, 'lib/config/templates.ts')), root);
    assert.equal(findPackageRoot('/'), undefined);
  });
});
