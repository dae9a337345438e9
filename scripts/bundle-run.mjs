// `agentlib run` in one file, and the tool entries that share its library with tool files
// (decision 0023). Run after tsc and bundle-tui.mjs (npm run build does).
//
// 1. dist/cli/run.bundle.cjs: the CLI (cli/main.js) with the run command, agentlib's library, and
//    the packages they load on the way (yargs and its helpers, yaml, zod, chalk) in one CommonJS
//    file, which bin/agentlib.js evaluates with a V8 code cache (tui/cached-bundle.ts; Node 20 has
//    no compile cache for ES modules): ~320 modules fewer on every `agentlib run`. The other
//    commands stay out (their modules are imported by URL if ever asked for; bin/agentlib.js only
//    sends `run` here). Packages loaded lazily (provider SDKs, esbuild, tsx, ora, @inquirer/prompts,
//    optional drivers) stay packages: a dynamic import() becomes a call of `__agentlibImport`, the
//    launcher's own import() (a classic script evaluated with a code cache cannot import), and a
//    package a lazily loaded module imports statically is require()d (Node ≥ 20.19 loads ES modules
//    that way). `import.meta.url` of each bundled module keeps its own value, computed from the
//    bundle's path.
// 2. dist/lib/**/tool-entry.js, one beside each public entry of package.json "exports": an ES
//    module exporting the entry's names, from the bundle's instance when the process runs from it
//    (lib/tools/bundled-library.ts), else from the entry itself. Compiled tool modules import
//    agentlib through them, so a tool and the library it runs in are the same instances.
// 3. dist/cli/run.bundle.cjs.<key>.v8cache: the bundle's code cache, made by running the
//    calculator example from its cassette through bin/agentlib.js with an empty cache directory,
//    so that a user's first run starts warm too (cli/load-run-bundle.ts reads it when the user's
//    cache directory has none; the key holds the bundle, Node's version and V8's flags, so another
//    Node does not find it). Optional: when that run fails, the build says so and goes on.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { lazySegmenter, yargsLocales } from './bundle-plugins.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const dist = join(root, 'dist') + sep;
const cliDir = join(dist, 'cli');
const OUTFILE = join(cliDir, 'run.bundle.cjs');
/** Command modules left out of the bundle (imported by URL if ever loaded). */
const OTHER_COMMANDS = new Set(['chat', 'serve', 'doctor', 'init', 'trace'].map((name) => join(dist, 'commands', `${name}.js`)));
/** Packages bundled: what every `agentlib run` loads. Any other package stays one. */
const BUNDLED_PACKAGES = /^(yargs|yargs-parser|cliui|y18n|escalade|get-caller-file|string-width|strip-ansi|ansi-regex|wrap-ansi|ansi-styles|emoji-regex|get-east-asian-width|yaml|zod|chalk)(\/|$)/;
/** The TOOL_ENTRY_FILE of lib/tools/bundled-library.ts. */
const TOOL_ENTRY = 'tool-entry.js';

/** Public entries of package.json "exports" that are agentlib's library: `{ subpath, file }`. */
function publicEntries() {
  const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return Object.entries(exports)
    .filter(([, target]) => typeof target === 'object' && typeof target.import === 'string' && /^\.\/dist\/lib\/(.+\/)?index\.js$/.test(target.import))
    .map(([subpath, target]) => ({ subpath, file: join(root, target.import) }));
}

/** Writes the tool entry beside each public entry, exporting the entry's names. */
async function writeToolEntries(entries) {
  for (const { subpath, file } of entries) {
    const names = Object.keys(await import(pathToFileURL(file).href));
    if (names.includes('default')) throw new Error(`bundle-run: ${subpath} has a default export; ${TOOL_ENTRY} does not re-export one`);
    const code = [
      `// agentlib ${subpath === '.' ? '' : subpath.slice(2)} for tool modules: the instance of the run bundle when this process runs from it, else ./index.js`,
      '// (written by scripts/bundle-run.mjs; see lib/tools/bundled-library.ts).',
      // (a loader such as tsx's may add a query to the URL)
      "const load = globalThis[Symbol.for('agentlib.bundled-library')]?.entries[import.meta.url.replace(/[?#].*$/s, '')];",
      "const entry = load === undefined ? await import('./index.js') : await load();",
      `export const { ${names.join(', ')} } = entry;`,
      '',
    ].join('\n');
    writeFileSync(join(dirname(file), TOOL_ENTRY), code);
  }
}

/** A path relative to the bundle's directory, as a URL path. */
const fromBundle = (path) => relative(cliDir, path).split(sep).join('/');

/**
 * agentlib's own modules made fit for a classic script: `import.meta.url` computed from the
 * bundle's path; a dynamic import of another module of the bundle stays (esbuild inlines it), of
 * a left-out command becomes `__agentlibImport` of its URL, of anything else (a package, a URL)
 * `__agentlibImport` as it is. cli/load-program.js imports the program module (yargs bundled here);
 * lib/config/yaml-module.js requires the yaml package (bundled here) on first use.
 */
function classicScript() {
  return {
    name: 'classic-script',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        if (!args.path.startsWith(dist)) return undefined;
        if (args.path === join(cliDir, 'load-program.js')) {
          return { contents: "export async function loadProgram() { return import('./program.js'); }", loader: 'js' };
        }
        if (args.path === join(dist, 'lib', 'config', 'yaml-module.js')) {
          // the yaml package in the bundle (with the code cache), not its one-file copy beside the module
          return { contents: "let yaml; export function loadYaml() { yaml ??= require('yaml'); return yaml; }", loader: 'js' };
        }
        let code = await readFile(args.path, 'utf8');
        code = code.replace(/(?<!['"`])\bimport\.meta\.url\b/g, `new URL(${JSON.stringify(fromBundle(args.path))}, __agentlibBundleUrl).href`);
        // esbuild would make any other import.meta an empty object in a CommonJS bundle
        if (/(?<!['"`])\bimport\.meta\b(?!\.url)/.test(code.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, ''))) {
          throw new Error(`bundle-run: ${args.path} uses import.meta beyond import.meta.url, which the run bundle does not provide; rewrite it in classicScript()`);
        }
        code = code.replace(/(?<![\w$#.])import\((\s*)(['"])(\.[^'"]+)\2(\s*)\)/g, (call, before, quote, specifier, after) => {
          const target = resolve(dirname(args.path), specifier);
          return OTHER_COMMANDS.has(target) ? `__agentlibImport(new URL(${JSON.stringify(fromBundle(target))}, __agentlibBundleUrl).href)` : call;
        });
        code = code.replace(/(?<![\w$#.])import\((?!\s*['"]\.)/g, '__agentlibImport(');
        return { contents: code, loader: 'js' };
      });
    },
  };
}

/** Packages outside BUNDLED_PACKAGES stay packages. */
function keepOtherPackages() {
  return {
    name: 'keep-other-packages',
    setup(b) {
      b.onResolve({ filter: /^[^./#]/ }, (args) => (args.path.startsWith('node:') || BUNDLED_PACKAGES.test(args.path) ? undefined : { path: args.path, external: true }));
    },
  };
}

const entries = publicEntries();
await writeToolEntries(entries);

const entryCode = [
  "import { installBundledLibrary } from '../lib/tools/bundled-library.js';",
  "export { main } from './main.js';",
  'installBundledLibrary({',
  '  entries: {',
  ...entries.map(({ file }) => `    [new URL(${JSON.stringify(fromBundle(join(dirname(file), TOOL_ENTRY)))}, __agentlibBundleUrl).href]: () => import(${JSON.stringify(`./${fromBundle(file)}`)}),`),
  '  },',
  '  redirects: {',
  ...entries.map(({ file }) => `    [new URL(${JSON.stringify(fromBundle(file))}, __agentlibBundleUrl).href]: new URL(${JSON.stringify(fromBundle(join(dirname(file), TOOL_ENTRY)))}, __agentlibBundleUrl).href,`),
  '  },',
  '});',
].join('\n');

await build({
  stdin: { contents: entryCode, resolveDir: cliDir, sourcefile: 'run.bundle-entry.js', loader: 'js' },
  outfile: OUTFILE,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  legalComments: 'linked',
  logLevel: 'warning',
  banner: { js: "var __agentlibBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  // bundled packages that read their own URL get the bundle's (as in an ES module bundle)
  define: { 'import.meta.url': '__agentlibBundleUrl' },
  plugins: [classicScript(), keepOtherPackages(), yargsLocales(), lazySegmenter({ rgiEmojiModule: join(dist, 'tui', 'rgi-emoji.js') })],
});

const output = readFileSync(OUTFILE, 'utf8');
if (/\bimport\(/.test(output)) throw new Error(`bundle-run: ${OUTFILE} still holds an import() (a classic script cannot import); see classicScript()`);

/** Makes the code cache the build ships next to the bundle (see the header); a problem, or undefined. */
function shipCodeCache() {
  const cacheDir = mkdtempSync(join(tmpdir(), 'agentlib-run-code-cache-'));
  try {
    for (const name of readdirSync(cliDir)) if (name.startsWith('run.bundle.cjs.') && name.endsWith('.v8cache')) rmSync(join(cliDir, name), { force: true });
    const argv = ['bin/agentlib.js', 'run', 'examples/calculator/agent.yaml', 'What is 1231 * 2331?', '--replay', 'examples/calculator/cassette.jsonl', '--no-trace', '--quiet'];
    const run = spawnSync(process.execPath, argv, { cwd: root, env: { ...process.env, AGENTLIB_CACHE_DIR: cacheDir, CI: 'true', NO_COLOR: '1' }, encoding: 'utf8' });
    if (run.status !== 0) return `the calculator example exited ${String(run.status)}: ${run.stderr.trim()}`;
    const made = readdirSync(cacheDir).find((name) => name.startsWith('run.bundle.cjs.') && name.endsWith('.v8cache'));
    if (made === undefined) return 'the run wrote no code cache';
    copyFileSync(join(cacheDir, made), join(cliDir, made));
    return undefined;
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

const problem = shipCodeCache();
if (problem !== undefined) console.warn(`bundle-run: no code cache shipped for agentlib run (${problem}); a user's first run compiles the bundle instead`);
