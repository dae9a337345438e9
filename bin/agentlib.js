#!/usr/bin/env node
// The agentlib command. Plain JavaScript so it runs before anything is compiled or loaded:
// 1. colour: NO_COLOR (non-empty) or --no-color → FORCE_COLOR=0, before chalk or ink can read
//    the environment (they read it once, at import, and ignore NO_COLOR themselves);
// 2. the module compile cache, when this Node version has it (faster start-ups);
// 3. the compiled CLI (dist/cli/main.js), whose main() resolves to the exit code.
import module from 'node:module';

const argv = process.argv.slice(2);
const end = argv.indexOf('--');
const flags = end === -1 ? argv : argv.slice(0, end);
if ((process.env.NO_COLOR ?? '') !== '' || flags.includes('--no-color') || flags.includes('--color=false')) {
  process.env.FORCE_COLOR = '0';
}

if (typeof module.enableCompileCache === 'function') {
  try {
    module.enableCompileCache();
  } catch {
    // the cache only speeds up start-up; run without it
  }
}

let cli;
try {
  cli = await import('../dist/cli/main.js');
} catch (error) {
  const missing = error?.code === 'ERR_MODULE_NOT_FOUND' && /dist[\\/]cli[\\/]main\.js/.test(String(error.message));
  process.stderr.write(
    missing
      ? 'agentlib: the CLI is not built (dist/cli/main.js is missing); run "npm run build" first.\n'
      : `agentlib: failed to start: ${error?.stack ?? error}\n`,
  );
  process.exit(3);
}
process.exitCode = await cli.main(argv);
