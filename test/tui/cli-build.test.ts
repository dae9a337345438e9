// The tmux tests run the built binary: ensureCliBuilt must rebuild when any part of the build
// (the compiled CLI, a terminal UI bundle, the help cache) is older than the sources.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { BUILD_OUTPUTS, BUILD_SOURCE_DIRS, isBuildStale } from '../support/cli-build.js';

test('isBuildStale compares the newest source with the oldest build output', () => {
  assert.equal(isBuildStale(100, [200, 300, 250]), false, 'every output is newer');
  assert.equal(isBuildStale(300, [300, 300]), false, 'same time: not stale');
  // main.js was rebuilt after the change, but a TUI bundle is older than the change: stale.
  assert.equal(isBuildStale(250, [300, 200, 400]), true);
  assert.equal(isBuildStale(250, [300, 260, 240]), true, 'the help cache is older than the source');
  assert.equal(isBuildStale(0, [300, undefined, 400]), true, 'a missing output');
  assert.equal(isBuildStale(0, []), true, 'nothing to compare with');
});

test('the outputs checked are main.js, both TUI bundles and the help cache; the sources include the launcher and the build scripts', () => {
  for (const output of [join('dist', 'cli', 'main.js'), join('dist', 'tui', 'chat', 'run-chat.bundle.js'), join('dist', 'tui', 'trace-viewer', 'run-viewer.bundle.js')]) {
    assert.ok(BUILD_OUTPUTS.includes(output), output);
  }
  assert.ok(BUILD_OUTPUTS.some((output) => output.startsWith(join('dist', 'cli', 'help'))), 'the help cache');
  assert.deepEqual([...BUILD_SOURCE_DIRS].sort(), ['bin', 'cli', 'commands', 'lib', 'scripts', 'tui']);
});
