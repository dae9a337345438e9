import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

test('importing the safety module does not load the yaml package until fromYaml is called', () => {
  const script = `
    import { createRequire } from 'node:module';
    const cache = createRequire(import.meta.url).cache;
    const yamlLoaded = () => Object.keys(cache).some((file) => /[\\\\/]node_modules[\\\\/]yaml[\\\\/]/.test(file));
    const { ToolPolicy } = await import('./lib/safety/index.ts');
    const before = yamlLoaded();
    ToolPolicy.fromYaml('allow: [x]');
    console.log(JSON.stringify({ before, after: yamlLoaded() }));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  assert.deepEqual(JSON.parse(out), { before: false, after: true });
});
