#!/usr/bin/env node
// The agentlib command. Plain JavaScript so it runs before anything is compiled or loaded:
// 1. colour: NO_COLOR (non-empty) or --no-color → FORCE_COLOR=0, before chalk or ink can read
//    the environment (they read it once, at import, and ignore NO_COLOR themselves);
// 2. a bare `agentlib --help`, `agentlib <command> --help` or `agentlib --version` is answered here
//    without loading the CLI: the help texts were rendered by the CLI itself at build time
//    (scripts/build-help-cache.mjs), one file per command and terminal width; anything else, or a
//    missing file, goes to the CLI;
// 3. the module compile cache, when this Node version has it (faster start-ups);
// 4. `agentlib trace view <trace>` on a terminal goes straight to the viewer without loading the
//    CLI's parser, which would cost ~90 ms of its 300 ms budget to the first frame: through the
//    self-contained bundle dist/cli/trace-view-fast-path.bundle.cjs, evaluated with a V8 code
//    cache (tui/cached-bundle.ts; made by the build next to the bundle, else written after the
//    first run in the user's cache directory),
//    else the module dist/cli/trace-view-fast-path.js (tui/trace-viewer/load-fast-path.ts); the
//    fast path hands anything unusual back;
// 5. `agentlib run …` runs from the one-file bundle dist/cli/run.bundle.cjs (the CLI, the run
//    command, the library, yargs, yaml and zod; scripts/bundle-run.mjs), evaluated with a V8 code
//    cache (cli/load-run-bundle.ts): ~320 modules fewer than the CLI's modules (decision 0023);
// 6. the compiled CLI (dist/cli/main.js), whose main() resolves to the exit code.
import { readFileSync } from 'node:fs';
import module from 'node:module';

const argv = process.argv.slice(2);
const end = argv.indexOf('--');
const flags = end === -1 ? argv : argv.slice(0, end);
if ((process.env.NO_COLOR ?? '') !== '' || flags.includes('--no-color') || flags.includes('--color=false')) {
  process.env.FORCE_COLOR = '0';
}

const fast = fastAnswer(argv);
if (fast !== undefined) process.stdout.write(fast);
else {
  enableCompileCache();
  if (!(await fastTraceView(argv)) && !(await runFromBundle(argv))) await runCli();
}

/**
 * The output of a bare `--help` / `-h` / `--version` or `<command> --help` / `<command> -h`, when
 * it can be given without the CLI (a command without a help file, such as an unknown one, goes to
 * the CLI).
 */
function fastAnswer(args) {
  const isHelp = (arg) => arg === '--help' || arg === '-h';
  const width = Math.min(100, process.stdout.columns ?? 80);
  try {
    if (args.length === 2 && isHelp(args[1]) && /^[a-z][a-z-]*$/.test(args[0])) {
      return readFileSync(new URL(`../dist/cli/help/${args[0]}/${width}.txt`, import.meta.url), 'utf8');
    }
    if (args.length !== 1) return undefined;
    if (isHelp(args[0])) return readFileSync(new URL(`../dist/cli/help/${width}.txt`, import.meta.url), 'utf8');
    if (args[0] === '--version') {
      const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
      if (pkg.name === 'agentlib' && typeof pkg.version === 'string') return `${pkg.version}\n`;
    }
  } catch {
    // not built, or no file for this width: the CLI answers
  }
  return undefined;
}

function enableCompileCache() {
  if (typeof module.enableCompileCache === 'function') {
    try {
      module.enableCompileCache();
    } catch {
      // the cache only speeds up start-up; run without it
    }
  }
}

/**
 * `agentlib trace view <trace>`, interactive: true when the fast path ran it (the exit code is
 * set); false when the CLI has to run (other arguments, no terminal, CI, an error to report the
 * CLI's way, or a build without the fast path).
 */
async function fastTraceView(args) {
  if (args[0] !== 'trace' || args[1] !== 'view') return false;
  const loaded = await loadFastPath();
  if (loaded === undefined) return false;
  const code = await loaded.fastPath.traceViewFastPath(args);
  if (code === undefined) return false;
  // The viewer has run: the code cache, when missing or stale, is written with the code it compiled.
  loaded.bundle?.save();
  process.exitCode = code;
  return true;
}

/** The fast path: its bundle (with the code cache) or its module; undefined when not built. */
async function loadFastPath() {
  try {
    const { codeCacheDir, loadTraceViewFastPath } = await import('../dist/tui/trace-viewer/load-fast-path.js');
    return await loadTraceViewFastPath(new URL('../dist/cli/', import.meta.url), codeCacheDir(process.env));
  } catch {
    // a build without the loader: the fast path's module alone
  }
  try {
    return { fastPath: await import('../dist/cli/trace-view-fast-path.js') };
  } catch {
    return undefined;
  }
}

/**
 * `agentlib run …` from the run bundle: true when it ran (the exit code is set); false when the
 * CLI's modules have to run (another command, or a build without the bundle or its loader).
 */
async function runFromBundle(args) {
  if (args[0] !== 'run') return false;
  let loaded;
  try {
    const { codeCacheDir, loadRunBundle } = await import('../dist/cli/load-run-bundle.js');
    loaded = await loadRunBundle(new URL('../dist/cli/', import.meta.url), codeCacheDir(process.env));
  } catch {
    // not built, or a broken bundle: the modules do the same, only slower to load
  }
  if (loaded === undefined) return false;
  process.exitCode = await loaded.main(args);
  // The run is over: the code cache, when missing or stale, is written with the code it compiled.
  loaded.bundle.save();
  return true;
}

async function runCli() {
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
}
