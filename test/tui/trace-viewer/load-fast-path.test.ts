import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { FAST_PATH_BUNDLE, FAST_PATH_MODULE, loadTraceViewFastPath } from '../../../tui/trace-viewer/load-fast-path.js';

describe('loadTraceViewFastPath', () => {
  let root: string;
  let n = 0;
  before(() => (root = mkdtempSync(join(tmpdir(), 'agentlib-load-fast-path-'))));
  after(() => rmSync(root, { recursive: true, force: true }));

  /** A dist/cli/ directory holding the given files. */
  const cliDir = (files: Record<string, string>): URL => {
    const dir = join(root, `cli-${n++}`);
    mkdirSync(dir);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return pathToFileURL(`${dir}/`);
  };
  const bundle = (from: string): string => `module.exports = { traceViewFastPath: async () => ${JSON.stringify(from)} };\n`;
  const module = (from: string): string => `export const traceViewFastPath = async () => ${JSON.stringify(from)};\n`;
  const run = async (dir: URL, cacheDir?: string): Promise<unknown> => {
    const loaded = await loadTraceViewFastPath(dir, cacheDir);
    return loaded === undefined ? undefined : [await loaded.fastPath.traceViewFastPath(['trace', 'view', 'x']), loaded.bundle?.cache];
  };

  test('takes the bundle, with the code cache, when it was built', async () => {
    const cacheDir = join(root, 'cache');
    assert.deepEqual(await run(cliDir({ [FAST_PATH_BUNDLE]: bundle('bundle'), [FAST_PATH_MODULE]: module('module') }), cacheDir), ['bundle', 'missing']);
    assert.deepEqual(await run(cliDir({ [FAST_PATH_BUNDLE]: bundle('bundle 2') })), ['bundle 2', 'off']);
  });

  test('falls back to the module when the bundle is missing, broken or exports nothing usable', async () => {
    assert.deepEqual(await run(cliDir({ [FAST_PATH_MODULE]: module('module') })), ['module', undefined]);
    assert.deepEqual(await run(cliDir({ [FAST_PATH_BUNDLE]: 'throw new Error("broken");', [FAST_PATH_MODULE]: module('module') })), ['module', undefined]);
    assert.deepEqual(await run(cliDir({ [FAST_PATH_BUNDLE]: 'module.exports = {};', [FAST_PATH_MODULE]: module('module') })), ['module', undefined]);
  });

  test('undefined when neither was built (the CLI runs and says so)', async () => {
    assert.equal(await run(cliDir({})), undefined);
    assert.equal(await run(cliDir({ [FAST_PATH_MODULE]: 'export const other = 1;\n' })), undefined);
  });
});
