import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Esbuild from 'esbuild';
import { TOOL_ENTRY_FILE } from './bundled-library.js';

/** A tool file compiled into one ES module, with what it was made from. */
export interface BundledToolModule {
  /** The ES module: local imports inlined, package imports as absolute `file:` URLs. */
  code: string;
  /**
   * Local files inlined into `code` (absolute paths, the entry first), then the agentlib tool
   * entries it imports (see {@link agentlibToolEntry}).
   */
  inputs: string[];
  /** Files the package imports resolved to (absolute paths). */
  packages: string[];
}

const LOADERS: Readonly<Record<string, Esbuild.Loader>> = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.jsx': 'jsx' };
const SOURCE_FILE = /\.[cm]?[jt]sx?$/;
/** Marks the resolution a plugin asks esbuild for itself. */
const INNER = { inner: true };

/**
 * An import by `file:` URL: a TypeScript file is inlined like a relative import; anything else
 * (agentlib's built modules, a package's file) stays an import of that URL, recorded with the
 * packages so that the entry is compiled again when its package changes.
 */
function fileUrlImport(url: string, packages: Set<string>): Esbuild.OnResolveResult {
  const path = fileURLToPath(url);
  if (LOADERS[extname(path)] === 'ts' || LOADERS[extname(path)] === 'tsx') return { path };
  packages.add(path);
  return { path: url, external: true };
}

/**
 * The `tool-entry.js` beside a public entry of agentlib (`…/dist/lib/index.js`,
 * `…/dist/lib/core/index.js`, …) that `resolved` is, when its build wrote one: the compiled module
 * imports that instead, which is the same entry unless the process runs `agentlib run` from its
 * bundle, where it is the bundle's instance of it (lib/tools/bundled-library.ts).
 */
function agentlibToolEntry(resolved: string): string | undefined {
  if (basename(resolved) !== 'index.js') return undefined;
  const entry = join(dirname(resolved), TOOL_ENTRY_FILE);
  if (!existsSync(entry)) return undefined;
  for (let dir = dirname(resolved); dirname(dir) !== dir; dir = dirname(dir)) {
    try {
      return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name === 'agentlib' ? entry : undefined;
    } catch {
      // no package.json here: keep walking up
    }
  }
  return undefined;
}

/**
 * Compiles a TypeScript (or JavaScript) tool file and the local files it imports into one ES
 * module with esbuild. Package imports (`zod`, `agentlib`, …) stay imports, resolved as Node would
 * from the importing file's directory and written as absolute `file:` URLs, so the module runs
 * from anywhere (the cache directory) and shares the packages' instances with the rest of the
 * process; built-in modules stay as they are. `import.meta.url`, `.dirname` and `.filename` keep
 * the values of the file they are written in. agentlib's public entries are imported through their
 * `tool-entry.js` files (see {@link agentlibToolEntry}).
 */
export async function bundleToolModule(file: string): Promise<BundledToolModule> {
  const esbuild = await import('esbuild');
  const packages = new Set<string>();
  const toolEntries = new Set<string>();
  let missing: Error | undefined;
  const plugin: Esbuild.Plugin = {
    name: 'agentlib-tool-module',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === INNER || isAbsolute(args.path)) return undefined;
        if (isBuiltin(args.path)) return { path: args.path, external: true };
        if (args.path.startsWith('file:')) return fileUrlImport(args.path, packages);
        const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: INNER });
        if (resolved.errors.length > 0) {
          // Node's own words and code, as an import of the file would fail without the cache.
          missing ??= Object.assign(new Error(`Cannot find package '${packageName(args.path)}' imported from ${args.importer}`), { code: 'ERR_MODULE_NOT_FOUND' });
          return { errors: resolved.errors };
        }
        packages.add(resolved.path);
        const toolEntry = agentlibToolEntry(resolved.path);
        if (toolEntry !== undefined) toolEntries.add(toolEntry);
        return { path: pathToFileURL(toolEntry ?? resolved.path).href, external: true };
      });
      build.onLoad({ filter: SOURCE_FILE }, async (args) => {
        const loader = LOADERS[extname(args.path)];
        const source = await readFile(args.path, 'utf8');
        if (loader === undefined || !source.includes('import.meta')) return undefined;
        const url = pathToFileURL(args.path).href;
        const define = { 'import.meta.url': JSON.stringify(url), 'import.meta.filename': JSON.stringify(args.path), 'import.meta.dirname': JSON.stringify(dirname(args.path)) };
        const { code } = await esbuild.transform(source, { loader, define, format: 'esm', sourcefile: args.path, tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: false } } });
        return { contents: code, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
  const workDir = dirname(file);
  const result = await esbuild.build({
    absWorkingDir: workDir,
    entryPoints: [file],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node}`,
    // Node's conditions for `import` (esbuild adds the bundler-only `module` unless told otherwise).
    conditions: ['node', 'import'],
    mainFields: ['main'],
    metafile: true,
    logLevel: 'silent',
    sourcemap: 'inline',
    sourcesContent: false,
    plugins: [plugin],
  }).catch((error: unknown) => {
    throw missing === undefined ? error : Object.assign(missing, { cause: error });
  });
  const code = result.outputFiles[0]?.text ?? '';
  const inputs = Object.keys(result.metafile.inputs).map((input) => resolve(workDir, input));
  const entry = inputs.find((input) => input === file) ?? file;
  return { code, inputs: [entry, ...inputs.filter((input) => input !== entry).sort(), ...[...toolEntries].sort()], packages: [...packages].sort() };
}

/** The package a bare specifier names: `yaml/util` → `yaml`, `@scope/pkg/sub` → `@scope/pkg`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}
