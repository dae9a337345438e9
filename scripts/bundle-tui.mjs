// Bundles each Ink entry point of the built TUI (dist/tui/**/run-*.js) with Ink, React and the rest
// of tui/ into one file next to it (run-chat.bundle.js, run-viewer.bundle.js, run-graph-view.bundle.js). Loading Ink as ~60
// separate modules (React's reconciler, yoga-layout, es-toolkit, …) costs ~300 ms at start-up on
// a 2-core machine; one bundled file loads in ~40 ms. Modules outside tui/ (lib/, commands/) stay
// external, imported by their relative path, so the agent, traces and errors the CLI passes in are
// the very same classes — except the few stateless helper modules in BUNDLED_LIB, bundled because
// they import a package Ink already bundles (lib/core/display-width.js and split-to-width.js →
// string-width: loaded apart, its ~7 modules cost ~20 ms of `trace view`'s start-up). React's production build is used
// (process.env.NODE_ENV is "production" inside the bundle). Ink imports React DevTools only when
// DEV=true; the bundle has none and says so. Run after tsc (npm run build does); the commands fall
// back to the unbundled modules when a bundle is missing (running from the sources). Every entry
// is bundled even when another fails; the script then exits 1.
//
// A third bundle, dist/cli/trace-view-fast-path.bundle.cjs, holds everything an interactive
// `agentlib trace view <trace>` runs (bin/agentlib.js's fast path: cli/trace-view-fast-path.js,
// reading the trace, the viewer, Ink, React, yoga), lib/ included: it is self-contained, so the
// classes in it never meet the CLI's (errors are told apart with isInstance, not instanceof). It
// is CommonJS because only a classic script can be loaded with a V8 code cache on Node 20
// (tui/cached-bundle.ts): Ink's devtools hook and yoga's WebAssembly set-up, both top-level
// awaits, are rewritten for that (yoga's instance is created in the background while the trace
// is read; the entry awaits it before importing the viewer).
//
// A fourth, dist/cli/program.bundle.js, is cli/program.js (the yargs program every command starts
// with) with yargs and its helpers inlined: ~35 modules fewer (~40 ms) on every command the CLI
// parses, `agentlib run` included (cli/load-program.ts loads it, else program.js). All of
// agentlib's own modules stay external (same classes everywhere). Its patches: yargs finds its
// message files next to its package; string-width 7 creates its Intl.Segmenter on first use.
//
// A fifth, dist/lib/config/yaml.bundle.cjs, is the `yaml` package in one CommonJS file (its ~70
// files cost ~25 ms of every `agentlib run`); lib/config/yaml-module.ts loads it, else the package.
//
// Patches applied to dependencies in the TUI bundles (the unbundled modules behave the same, slower):
// - string-width builds /^\p{RGI_Emoji}$/v when loaded and runs it on every non-ASCII grapheme:
//   V8 takes 25-60 ms to parse and compile that one regex. The bundled string-width calls
//   tui/rgi-emoji.ts instead: the same answers, and the regex is only built for a grapheme that
//   can be an emoji (an Emoji_Presentation character or U+FE0F);
// - Ink measures text with string-width 8 through lib/core/display-width.ts's displayWidth (the
//   same widths, each distinct grapheme measured once: ~40 ms less for a first frame of tree lines);
// - Ink's React DevTools hook (DEV=true; it would bundle the `ws` package) throws a clear error.
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { lazySegmenter, replaceOnce, yargsLocales } from './bundle-plugins.mjs';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const tuiDir = join(dist, 'tui') + sep;
const ENTRIES = ['tui/chat/run-chat.js', 'tui/trace-viewer/run-viewer.js', 'tui/graph/run-graph-view.js'];
/** Modules outside tui/ bundled anyway: pure functions (no classes, no state), sharing a package Ink bundles. */
const BUNDLED_LIB = new Set(['display-width.js', 'split-to-width.js'].map((name) => join(dist, 'lib', 'core', name)));
const NO_DEVTOOLS = "throw new Error('agentlib: React DevTools (DEV=true) are not available in the bundled terminal UI');";
/** lib/core/display-width.js: string-width with a per-grapheme cache (bundled Ink measures text through it). */
const DISPLAY_WIDTH = join(dist, 'lib', 'core', 'display-width.js');
/** tui/rgi-emoji.ts, compiled: string-width's emoji test, building its regex only when needed. */
const RGI_EMOJI = join(dist, 'tui', 'rgi-emoji.js');
const YOGA_BASE64 = /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/;

/** The dependency patches every bundle gets (see the header). */
function patchDependencies() {
  return {
    name: 'patch-dependencies',
    setup(b) {
      let patchedStringWidth = false;
      b.onLoad({ filter: /[\\/]node_modules[\\/]string-width[\\/]index\.js$/ }, async (args) => {
        let code = await readFile(args.path, 'utf8');
        // string-width 7 (under wrap-ansi) has no such regex
        if (!code.includes('const rgiEmojiRegex =')) return undefined;
        code = replaceOnce(code, 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;', `import { isRgiEmoji } from ${JSON.stringify(RGI_EMOJI)};`, args.path);
        code = replaceOnce(code, 'rgiEmojiRegex.test(segment)', 'isRgiEmoji(segment)', args.path);
        patchedStringWidth = true;
        return { contents: code, loader: 'js' };
      });
      b.onEnd((result) => {
        if (result.errors.length === 0 && !patchedStringWidth) {
          result.errors.push({ text: 'bundle-tui: string-width (with its RGI_Emoji regex) was not bundled; update scripts/bundle-tui.mjs' });
        }
      });
      // Ink (widest-line, its output, cli-truncate) measures text with string-width 8 (the one
      // lib/core/display-width.js wraps): it gets displayWidth's per-grapheme cache instead.
      let stringWidthPath;
      b.onResolve({ filter: /^string-width$/ }, async (args) => {
        if (args.importer === DISPLAY_WIDTH || args.pluginData?.real === true) return undefined;
        const real = () => b.resolve('string-width', { kind: args.kind, resolveDir: dirname(DISPLAY_WIDTH), pluginData: { real: true } });
        stringWidthPath ??= (await real()).path;
        const wanted = await b.resolve('string-width', { kind: args.kind, resolveDir: args.resolveDir, pluginData: { real: true } });
        // string-width 7 (under wrap-ansi) stays as it is
        return wanted.path === stringWidthPath ? { path: 'string-width', namespace: 'display-width' } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'display-width' }, () => ({
        contents: `export { stringWidthCompatible as default } from ${JSON.stringify(DISPLAY_WIDTH)};`,
        loader: 'js',
        resolveDir: dist,
      }));
      b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'react-devtools-core', namespace: 'no-devtools' }));
      b.onResolve({ filter: /^\.\/devtools\.js$/ }, (args) => (/[\\/]ink[\\/]build$/.test(args.resolveDir) ? { path: 'devtools', namespace: 'no-devtools' } : undefined));
      b.onLoad({ filter: /.*/, namespace: 'no-devtools' }, () => ({ contents: NO_DEVTOOLS, loader: 'js' }));
    },
  };
}

/** Relative imports that leave dist/tui/ stay external, re-pointed from the bundle's directory. */
function keepOutsideTuiExternal(outDir) {
  return {
    name: 'keep-outside-tui-external',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        // Only agentlib's own imports: packages (Ink's relative imports included) are bundled.
        if (!args.importer.startsWith(dist)) return undefined;
        const target = resolve(args.resolveDir, args.path);
        if (target.startsWith(tuiDir) || BUNDLED_LIB.has(target)) return undefined;
        const path = relative(outDir, target).split(sep).join('/');
        return { path: path.startsWith('.') ? path : `./${path}`, external: true };
      });
      // Yoga (Ink's layout engine) carries its WebAssembly inline as base64 and, where a global
      // fetch exists, "downloads" that data: URL through it, which makes Node load its whole fetch
      // implementation (undici) first: 30-100 ms of start-up. Without fetch in scope it decodes
      // the same bytes directly (the path it takes where there is no fetch).
      b.onLoad({ filter: YOGA_BASE64 }, async (args) => ({
        contents: `const fetch = undefined;\n${await readFile(args.path, 'utf8')}`,
        loader: 'js',
      }));
    },
  };
}

/** Every relative import of agentlib's own modules stays external, re-pointed from the bundle's directory. */
function keepOwnModulesExternal(outDir) {
  return {
    name: 'keep-own-modules-external',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.kind === 'entry-point' || !args.importer.startsWith(dist)) return undefined;
        const path = relative(outDir, resolve(args.resolveDir, args.path)).split(sep).join('/');
        return { path: path.startsWith('.') ? path : `./${path}`, external: true };
      });
    },
  };
}

/**
 * What makes the fast-path bundle a classic script: no top-level await (yoga's instance is made
 * in the background and awaited by the entry; Ink's devtools hook becomes a require of the stub),
 * and `import.meta.url` of agentlib's modules computed from the bundle's own path.
 */
function classicScript(outDir) {
  return {
    name: 'classic-script',
    setup(b) {
      b.onLoad({ filter: /yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/ }, (args) => ({
        contents: [
          "import loadYoga from '../binaries/yoga-wasm-base64-esm.js';",
          "import wrapAssembly from './wrapAssembly.js';",
          'let Yoga;',
          '/** Settles once Yoga can be used (Ink only calls it while rendering). */',
          'export const yogaReady = loadYoga().then((assembly) => { Yoga = wrapAssembly(assembly); });',
          'yogaReady.catch(() => undefined);',
          'export { Yoga as default };',
          "export * from './generated/YGEnums.js';",
        ].join('\n'),
        loader: 'js',
        resolveDir: dirname(args.path),
      }));
      b.onLoad({ filter: YOGA_BASE64 }, async (args) => ({
        contents: `const fetch = undefined;\n${replaceOnce(await readFile(args.path, 'utf8'), 'import.meta.url', 'undefined', args.path)}`,
        loader: 'js',
      }));
      b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, async (args) => {
        let code = await readFile(args.path, 'utf8');
        code = replaceOnce(code, "await import('./devtools.js')", "require('./devtools.js')", args.path);
        code = replaceOnce(code, '? await loadPackageJson()', '? { name: undefined, version: undefined }', args.path);
        return { contents: code, loader: 'js' };
      });
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        if (!args.path.startsWith(dist)) return undefined;
        const code = await readFile(args.path, 'utf8');
        if (!code.includes('import.meta.url')) return undefined;
        const own = relative(outDir, args.path).split(sep).join('/');
        return { contents: code.replaceAll('import.meta.url', `new URL(${JSON.stringify(own)}, require('node:url').pathToFileURL(__filename)).href`), loader: 'js' };
      });
    },
  };
}

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: true,
  legalComments: 'linked',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
};

let failed = false;
for (const entry of ENTRIES) {
  const input = join(dist, entry);
  const outfile = input.replace(/\.js$/, '.bundle.js');
  const built = build({
    ...common,
    entryPoints: [input],
    outfile,
    format: 'esm',
    // Bundled CommonJS dependencies (react, signal-exit) call require() for Node built-ins.
    banner: { js: "import { createRequire as __agentlibCreateRequire } from 'node:module'; const require = __agentlibCreateRequire(import.meta.url);" },
    plugins: [patchDependencies(), keepOutsideTuiExternal(dirname(outfile))],
  });
  // esbuild has printed the errors; the other entries are still bundled
  await built.catch(() => (failed = true));
}

// cli/program.js with its packages (yargs) inlined; agentlib's modules external (see the header).
const programDir = join(dist, 'cli');
const program = build({
  ...common,
  entryPoints: [join(programDir, 'program.js')],
  outfile: join(programDir, 'program.bundle.js'),
  format: 'esm',
  plugins: [keepOwnModulesExternal(programDir), yargsLocales(), lazySegmenter({ rgiEmojiModule: RGI_EMOJI })],
});
await program.catch(() => (failed = true));

// The yaml package in one file, for lib/config/yaml-module.js (see the header).
const yamlBundle = build({
  ...common,
  stdin: { contents: "module.exports = require('yaml');", resolveDir: join(dist, 'lib', 'config'), sourcefile: 'yaml.bundle-entry.cjs', loader: 'js' },
  outfile: join(dist, 'lib', 'config', 'yaml.bundle.cjs'),
  format: 'cjs',
});
await yamlBundle.catch(() => (failed = true));

// The fast path of `agentlib trace view`, self-contained, loaded with a code cache (see the header).
const fastPathDir = join(dist, 'cli');
const fastPath = build({
  ...common,
  stdin: {
    contents: [
      "import { yogaReady } from 'yoga-layout';",
      "import { processIO } from './output.js';",
      "import { traceViewFastPath as fastPath } from './trace-view-fast-path.js';",
      "export { parseFastView } from './trace-view-fast-path.js';",
      '/** bin/agentlib.js: `agentlib trace view <trace>` with the bundled viewer (see cli/trace-view-fast-path.ts); `io` for scripts/build-code-cache.mjs. */',
      'export function traceViewFastPath(argv, io = processIO()) {',
      "  return fastPath(argv, io, async () => { await yogaReady; return import('../tui/trace-viewer/run-viewer.js'); });",
      '}',
    ].join('\n'),
    resolveDir: fastPathDir,
    sourcefile: 'trace-view-fast-path.bundle-entry.js',
    loader: 'js',
  },
  outfile: join(fastPathDir, 'trace-view-fast-path.bundle.cjs'),
  format: 'cjs',
  // a classic script has no import(): bundled modules are initialised in place, built-ins required
  supported: { 'dynamic-import': false },
  plugins: [classicScript(fastPathDir), patchDependencies()],
});
await fastPath.catch(() => (failed = true));
if (failed) process.exitCode = 1;
