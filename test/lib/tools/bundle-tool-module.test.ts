import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { bundleToolModule } from '../../../lib/tools/bundle-tool-module.js';

// Imports written as `file:` URLs in a tool file (as a generated tool or a test may write them).

describe('bundleToolModule with file: URL imports', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentlib-bundle-tool-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a JavaScript module stays an import of its URL and is recorded; a TypeScript file is inlined', async () => {
    const library = join(dir, 'library.mjs');
    writeFileSync(library, 'export const twice = (n) => 2 * n;\n');
    const helper = join(dir, 'helper.ts');
    writeFileSync(helper, 'export const HELPER_MARK: string = "inlined helper";\n');
    const file = join(dir, 'tools.ts');
    writeFileSync(
      file,
      [
        `import { twice } from '${pathToFileURL(library).href}';`,
        `import { HELPER_MARK } from '${pathToFileURL(helper).href}';`,
        'export const value: number = twice(2);',
        'export const mark: string = HELPER_MARK;',
      ].join('\n'),
    );
    const bundled = await bundleToolModule(file);
    assert.ok(bundled.code.includes(pathToFileURL(library).href));
    assert.ok(!bundled.code.includes(pathToFileURL(helper).href));
    assert.ok(bundled.code.includes('inlined helper'));
    assert.deepEqual(bundled.packages, [library]);
    assert.deepEqual(bundled.inputs, [file, helper]);
  });
});
