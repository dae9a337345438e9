import assert from 'node:assert/strict';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfiguredTools } from '../../../lib/config/load-tools.js';
import { parseAgentConfig } from '../../../lib/config/parse-agent-config.js';
import { brief, rejectsWithConfigFileError, tempProject, toolsSource } from './project.js';

/**
 * A `tools: ./dir/` directory is confined like a single file: a symbolic link inside it (to a file
 * or, when recursive, to a directory) that leads out of the config's directory is refused, with the
 * position of the `tools:` entry; links that stay inside are followed.
 */
describe('agent YAML: symbolic links inside a tool directory', () => {
  let root = '';
  let dir = '';
  const imported: string[] = [];
  let cleanup = async (): Promise<void> => {};
  before(async () => {
    const project = await tempProject({
      'agent/file-link/good.ts': toolsSource('good'),
      'agent/dir-link/good.ts': toolsSource('good'),
      'agent/inside-link/good.ts': toolsSource('good'),
      'agent/shared/extra.ts': toolsSource('extra'),
      'secret/tools.ts': toolsSource('secret'),
      'secret/deep/tools.ts': toolsSource('deep_secret'),
    });
    root = project.dir;
    cleanup = project.cleanup;
    dir = join(root, 'agent');
    await symlink(join(root, 'secret/tools.ts'), join(dir, 'file-link/evil.ts'));
    await symlink(join(root, 'secret/deep'), join(dir, 'dir-link/sub'));
    await symlink(join(dir, 'shared'), join(dir, 'inside-link/sub'));
  });
  after(async () => cleanup());

  const load = (yaml: string) => {
    const config = parseAgentConfig(yaml, { source: 'agent.yaml', baseDir: dir });
    return loadConfiguredTools(config, 'agent.yaml', {
      importModule: async (url) => {
        imported.push(url);
        return import(url) as Promise<unknown>;
      },
    });
  };

  test('a symlinked file pointing outside is refused at the entry\'s line and never imported', async () => {
    imported.length = 0;
    const error = await rejectsWithConfigFileError(load('name: a\ntools:\n  - ./file-link/\n'));
    assert.deepEqual(brief(error.issues), [
      `3:5 file-link/evil.ts is a symbolic link to ${join(root, 'secret/tools.ts')}, outside the config file's directory (${dir}); tools in a directory must stay inside it`,
    ]);
    assert.match(error.message, /agent\.yaml:3:5/);
    assert.equal(imported.some((url) => url.includes('secret')), false, 'nothing outside was imported');
  });

  test('a symlinked subdirectory pointing outside is refused when directories recurse', async () => {
    imported.length = 0;
    const error = await rejectsWithConfigFileError(load('tools:\n  - ./dir-link/\ntool_config:\n  recursive: true\n'));
    assert.deepEqual(brief(error.issues), [
      `2:5 dir-link/sub is a symbolic link to ${join(root, 'secret/deep')}, outside the config file's directory (${dir}); tools in a directory must stay inside it`,
    ]);
    assert.equal(imported.some((url) => url.includes('secret')), false);
  });

  test('links that stay inside the config directory are followed', async () => {
    const tools = await load('tools:\n  - ./inside-link/\ntool_config:\n  recursive: true\n');
    assert.deepEqual(tools.map((t) => t.name).sort(), ['extra', 'good']);
  });
});
