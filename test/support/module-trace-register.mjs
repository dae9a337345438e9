// Records every module a Node process loads, for tests that check what a command imports.
// Use: AGENTLIB_MODULE_TRACE=/tmp/trace.txt node --import ./test/support/module-trace-register.mjs …
// ESM resolutions are recorded by the hooks in module-trace-hooks.mjs (one "specifier<TAB>url"
// line each); CommonJS modules are added from require.cache when the process exits.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const file = process.env.AGENTLIB_MODULE_TRACE;
if (!file) throw new Error('module-trace-register.mjs needs AGENTLIB_MODULE_TRACE=<file>');

register('./module-trace-hooks.mjs', import.meta.url, { data: { file } });

const requireCache = createRequire(import.meta.url).cache;
process.on('exit', () => {
  const lines = Object.keys(requireCache).map((path) => `(require)\t${path}\n`);
  appendFileSync(file, lines.join(''));
});
