import type * as Crypto from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

// Required, not imported: an ES module import of a built-in reads every export, which makes Node
// load node:crypto's lazy parts too (webcrypto), on the start-up path of `agentlib run`.
const requireHere = createRequire(import.meta.url);
const { createHash } = requireHere('node:crypto') as typeof Crypto;

/** The layout of cache entries; a change makes older entries misses (2: agentlib imported through its tool entries). */
const FORMAT = 2;
/** The first line of an entry: this, then its manifest as JSON. */
const HEADER = '// agentlib-tool-module ';

/** How an import used the cache. */
export type ToolModuleCacheOutcome = 'hit' | 'miss' | 'stale' | 'corrupt';

/** A tool module imported through the cache. */
export interface CachedToolModule {
  /** The module namespace. */
  module: unknown;
  /** `hit`: imported as cached; otherwise compiled first (no entry, an outdated one, a damaged one). */
  outcome: ToolModuleCacheOutcome;
  /** The entry's file. */
  file: string;
}

/** What an entry was made from, checked before it is used. */
interface Manifest {
  format: number;
  compiler: string;
  /** SHA-256 of the code after the first line. */
  code: string;
  /** Local files inlined (absolute path, SHA-256 of the content), the tool file first, then agentlib's tool entries imported. */
  inputs: [string, string][];
  /** package.json files of the packages imported (absolute path, SHA-256 of the content). */
  packages: [string, string][];
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

function hashFile(path: string): string | undefined {
  try {
    return sha256(readFileSync(path));
  } catch {
    return undefined;
  }
}

/** The installed esbuild's version without loading it; undefined when esbuild is not installed. */
function installedCompiler(): string | undefined {
  try {
    const main = requireHere.resolve('esbuild');
    const pkg = JSON.parse(readFileSync(join(dirname(main), '..', 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
    return pkg.name === 'esbuild' && typeof pkg.version === 'string' ? `esbuild@${pkg.version}` : undefined;
  } catch {
    return undefined;
  }
}

/** The package.json nearest above a file (its package's), or undefined. */
function packageJsonOf(file: string): string | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const candidate = join(dir, 'package.json');
    if (hashFile(candidate) !== undefined) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The entry's path: named after the compiler, Node's version and the tool file's path (first
 * hash) and the tool file's content (second hash), so editing a file, or another esbuild or Node,
 * makes a new entry, and a checkout switching between versions of a file finds each one.
 */
export function toolModuleCacheFile(cacheDir: string, file: string, content: Buffer, compiler: string): string {
  const where = sha256(`${FORMAT}\0${compiler}\0${process.version}\0${file}`).slice(0, 16);
  return join(cacheDir, 'tools', `${basename(file).replace(/[^\w.-]/g, '_')}.${where}.${sha256(content).slice(0, 16)}.mjs`);
}

/** Whether an entry is whole and was made from the files as they are now; `code`: the code's hash. */
function checkEntry(entry: string, compiler: string): { state: 'valid'; code: string; packages: string[] } | { state: 'stale' | 'corrupt' | 'missing' } {
  const state = entryState(entry, compiler);
  return typeof state === 'string' ? { state } : { state: 'valid', code: state.code, packages: state.packages.map(([path]) => path) };
}

function entryState(entry: string, compiler: string): 'stale' | 'corrupt' | 'missing' | Manifest {
  let text: string;
  try {
    text = readFileSync(entry, 'utf8');
  } catch {
    return 'missing';
  }
  const newline = text.indexOf('\n');
  if (newline === -1 || !text.startsWith(HEADER)) return 'corrupt';
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text.slice(HEADER.length, newline)) as Manifest;
  } catch {
    return 'corrupt';
  }
  if (typeof manifest !== 'object' || manifest === null || manifest.code !== sha256(text.slice(newline + 1))) return 'corrupt';
  if (manifest.format !== FORMAT || manifest.compiler !== compiler || !Array.isArray(manifest.inputs) || !Array.isArray(manifest.packages)) return 'stale';
  for (const [path, hash] of [...manifest.inputs, ...manifest.packages]) if (hashFile(path) !== hash) return 'stale';
  return manifest;
}

/** Writes an entry whole or not at all: a temporary file in the same directory, then a rename. */
function writeEntry(entry: string, text: string): void {
  mkdirSync(dirname(entry), { recursive: true });
  const temporary = `${entry}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, entry);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Options of {@link importCachedToolModule}. */
export interface ImportCachedToolModuleOptions {
  /** Called with the package.json files of the packages the module imports, right before it is imported. */
  beforeImport?: (packageJsons: readonly string[]) => void;
}

/**
 * Imports a TypeScript tool file through the compiled-module cache in `cacheDir`: a valid entry
 * (same compiler and Node, and every inlined file and imported package.json as when it was made)
 * is imported as it is, without loading the compiler; otherwise the file is compiled with esbuild
 * (lib/tools/bundle-tool-module.ts), written as a new entry (temporary file + rename, so
 * concurrent runs never see half an entry) and imported. A damaged entry is compiled again.
 * Undefined when the cache cannot be used (esbuild not installed, the directory not writable):
 * the caller compiles another way. Errors of the compiler (a syntax error) and of the module's own
 * code are thrown.
 */
export async function importCachedToolModule(file: string, cacheDir: string, options: ImportCachedToolModuleOptions = {}): Promise<CachedToolModule | undefined> {
  const compiler = installedCompiler();
  if (compiler === undefined) return undefined;
  const entry = toolModuleCacheFile(cacheDir, file, readFileSync(file), compiler);
  const checked = checkEntry(entry, compiler);
  let code: string;
  let packages: readonly string[];
  if (checked.state === 'valid') {
    code = checked.code;
    packages = checked.packages;
  } else {
    const { bundleToolModule } = await import('./bundle-tool-module.js');
    const bundled = await bundleToolModule(file);
    const inputs = bundled.inputs.map((path): [string, string] => [path, hashFile(path) ?? '']);
    const packageJsons = [...new Set(bundled.packages.map(packageJsonOf).filter((path): path is string => path !== undefined))].sort();
    code = sha256(bundled.code);
    packages = packageJsons;
    const manifest: Manifest = { format: FORMAT, compiler, code, inputs, packages: packageJsons.map((path): [string, string] => [path, hashFile(path) ?? '']) };
    // The content hashed now may differ from the one in the name if the file changed meanwhile:
    // the entry is then stale on the next run and made again.
    try {
      writeEntry(entry, `${HEADER}${JSON.stringify(manifest)}\n${bundled.code}`);
    } catch {
      return undefined;
    }
  }
  const outcome: ToolModuleCacheOutcome = checked.state === 'valid' ? 'hit' : checked.state === 'missing' ? 'miss' : checked.state;
  options.beforeImport?.(packages);
  // The URL carries the code's hash: an entry rewritten in this process (a local import changed) is
  // a new module, not the one Node already holds for the file's URL.
  return { module: await import(`${pathToFileURL(entry).href}?${code.slice(0, 16)}`), outcome, file: entry };
}
