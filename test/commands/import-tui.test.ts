import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { importTui } from '../../commands/import-tui.js';
import { ensureCliBuilt, repoRoot } from '../support/cli-build.js';

describe('importTui', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agentlib-import-tui-'));
    writeFileSync(join(dir, 'plain.js'), "export const from = 'entry';\n");
    writeFileSync(join(dir, 'bundled.js'), "export const from = 'entry';\n");
    writeFileSync(join(dir, 'bundled.bundle.js'), "export const from = 'bundle';\n");
    writeFileSync(join(dir, 'broken.js'), "export const from = 'entry';\n");
    writeFileSync(join(dir, 'broken.bundle.js'), "import './no-such-dependency.js';\nexport const from = 'bundle';\n");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const entry = (name: string): URL => pathToFileURL(join(dir, name));

  test('loads the bundle next to the entry when there is one', async () => {
    assert.equal(((await importTui(entry('bundled.js'))) as { from: string }).from, 'bundle');
  });

  test('falls back to the entry module when no bundle was built', async () => {
    assert.equal(((await importTui(entry('plain.js'))) as { from: string }).from, 'entry');
  });

  test('a bundle that fails to load is an error, not a silent fallback', async () => {
    await assert.rejects(importTui(entry('broken.js')), (error: Error) => /no-such-dependency/.test(error.message));
  });
});

describe('the built terminal-UI bundles', () => {
  before(() => ensureCliBuilt());

  for (const entry of ['tui/chat/run-chat', 'tui/trace-viewer/run-viewer']) {
    test(`${entry}.bundle.js holds Ink and React, and imports agentlib's own modules from dist/`, async () => {
      const file = join(repoRoot, 'dist', `${entry}.bundle.js`);
      assert.ok(existsSync(file), `${file} was not built`);
      const code = readFileSync(file, 'utf8');
      const specifiers = [...code.matchAll(/(?:from|import\()\s*"([^"]+)"/g)].map((match) => match[1] as string);
      assert.ok(specifiers.length > 0);
      for (const specifier of specifiers) {
        assert.ok(specifier.startsWith('node:') || specifier.startsWith('../../lib/'), `unexpected import "${specifier}" in ${entry}.bundle.js`);
        if (specifier.startsWith('../../lib/')) assert.ok(existsSync(new URL(specifier, pathToFileURL(file))), `${specifier} does not exist next to the bundle`);
      }
      assert.ok(!/react-devtools-core/.test(specifiers.join(' ')));
      const loaded = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      assert.equal(typeof loaded[entry.endsWith('run-chat') ? 'runChat' : 'runTraceViewer'], 'function');
    });
  }
});
