// Bundles each Ink entry point of the built TUI (dist/tui/**/run-*.js) with Ink, React and the rest
// of tui/ into one file next to it (run-chat.bundle.js, run-viewer.bundle.js). Loading Ink as ~60
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
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const tuiDir = join(dist, 'tui') + sep;
const ENTRIES = ['tui/chat/run-chat.js', 'tui/trace-viewer/run-viewer.js'];
/** Modules outside tui/ bundled anyway: pure functions (no classes, no state), sharing a package Ink bundles. */
const BUNDLED_LIB = new Set(['display-width.js', 'split-to-width.js'].map((name) => join(dist, 'lib', 'core', name)));

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
      b.onLoad({ filter: /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, async (args) => ({
        contents: `const fetch = undefined;\n${await readFile(args.path, 'utf8')}`,
        loader: 'js',
      }));
      b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'react-devtools-core', namespace: 'no-devtools' }));
      b.onLoad({ filter: /.*/, namespace: 'no-devtools' }, () => ({
        contents: "throw new Error('agentlib: React DevTools (DEV=true) are not available in the bundled terminal UI');",
        loader: 'js',
      }));
    },
  };
}

let failed = false;
for (const entry of ENTRIES) {
  const input = join(dist, entry);
  const outfile = input.replace(/\.js$/, '.bundle.js');
  const built = build({
    entryPoints: [input],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    legalComments: 'linked',
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
    // Bundled CommonJS dependencies (react, signal-exit) call require() for Node built-ins.
    banner: { js: "import { createRequire as __agentlibCreateRequire } from 'node:module'; const require = __agentlibCreateRequire(import.meta.url);" },
    plugins: [keepOutsideTuiExternal(dirname(outfile))],
  });
  // esbuild has printed the errors; the other entries are still bundled
  await built.catch(() => (failed = true));
}
if (failed) process.exitCode = 1;
