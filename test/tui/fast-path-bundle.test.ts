import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ensureCliBuilt, repoRoot } from '../support/cli-build.js';

const BUNDLE = join(repoRoot, 'dist', 'cli', 'trace-view-fast-path.bundle.cjs');

describe('the built trace-view fast-path bundle', () => {
  let cacheDir: string;
  before(() => {
    ensureCliBuilt();
    cacheDir = mkdtempSync(join(tmpdir(), 'agentlib-fast-path-bundle-'));
  });
  after(() => rmSync(cacheDir, { recursive: true, force: true }));

  test('is a self-contained classic script: it requires Node built-ins only and has no import.meta', () => {
    assert.ok(existsSync(BUNDLE), `${BUNDLE} was not built`);
    const code = readFileSync(BUNDLE, 'utf8');
    const required = [...code.matchAll(/\brequire\("([^"]+)"\)/g)].map((match) => match[1] as string);
    assert.ok(required.length > 0);
    for (const name of required) assert.ok(isBuiltin(name), `requires "${name}"`);
    assert.doesNotMatch(code, /import\.meta/);
  });

  test('every TUI bundle builds the RGI emoji regex lazily (tui/rgi-emoji.ts), never at load', () => {
    for (const file of [BUNDLE, join(repoRoot, 'dist', 'tui', 'trace-viewer', 'run-viewer.bundle.js'), join(repoRoot, 'dist', 'tui', 'chat', 'run-chat.bundle.js')]) {
      const code = readFileSync(file, 'utf8');
      assert.equal(code.match(/RGI_Emoji/g)?.length, 1, `${file}: one RGI_Emoji regex`);
      assert.match(code, /\?\?=\s*new RegExp\("\^\\\\p\{RGI_Emoji\}\$",\s*"v"\)/, `${file}: built on first use`);
      assert.match(code, /Emoji_Presentation\}\\uFE0F/, `${file}: behind the cheap test`);
    }
  });

  test('loads through the code cache: the first process writes it, the next one runs from it', () => {
    const load = (): Record<string, unknown> =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            [
              `import { loadCachedBundle } from ${JSON.stringify(pathToFileURL(join(repoRoot, 'dist', 'tui', 'cached-bundle.js')).href)};`,
              `const bundle = await loadCachedBundle(${JSON.stringify(BUNDLE)}, { cacheDir: ${JSON.stringify(cacheDir)} });`,
              "const parsed = bundle.exports.parseFastView(['run_1', '--no-color']);",
              'const saved = bundle.save();',
              "process.stdout.write(JSON.stringify({ cache: bundle.cache, parsed, saved, fastPath: typeof bundle.exports.traceViewFastPath }));",
              'process.exit(0);',
            ].join('\n'),
          ],
          { encoding: 'utf8' },
        ),
      ) as Record<string, unknown>;
    const parsed = { ref: 'run_1', color: false };
    assert.deepEqual(load(), { cache: 'missing', parsed, saved: true, fastPath: 'function' });
    assert.deepEqual(load(), { cache: 'hit', parsed, saved: false, fastPath: 'function' });
  });
});
