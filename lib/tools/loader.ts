import { readdir, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { closestMatch } from '../core/suggest.js';
import { collectTools, uniqueTools, type Found } from './collect-tools.js';
import { isBareSpecifier, resolvePackageEntry } from './resolve-package.js';
import { ownGet } from './schema-utils.js';
import type { Tool } from './types.js';
import { importModule, NO_TS_LOADER } from './import-module.js';

/** File extensions the loader imports. */
export const TOOL_FILE_EXTENSIONS: readonly string[] = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'];
const TS_EXTENSIONS = new Set(['.ts', '.mts', '.cts']);
const SKIPPED_FILE = /\.(test|spec)\.[cm]?[jt]s$|\.d\.[cm]?ts$/;

/** Something tools can be loaded from: a module object, a file, a `file#export` reference or a directory. */
export type ToolSource = string | object;

/** Options of {@link ToolLoader}. */
export interface ToolLoaderOptions {
  /** Base directory for relative paths. Default `process.cwd()`. */
  cwd?: string;
  /** Also load from subdirectories (node_modules and dot-directories excluded). Default false. */
  recursive?: boolean;
  /** Imports a module by file URL. Default: dynamic `import()`. Injected in tests. */
  importModule?: (url: string) => Promise<unknown>;
  /**
   * A directory that files found in tool directories must stay inside after following symbolic
   * links (agent YAML files confine their tools to the file's directory). A link leading out of it
   * throws ConfigurationError. Default: no confinement.
   */
  confineTo?: string;
}

/**
 * Loads tools from modules, files (`.js`, `.mjs`, `.cjs`, `.ts`, `.mts`, `.cts`), `path#exportName`
 * references, installed packages (`pkg`, `pkg#exportName`) and directories (files sorted by name; `*.test.*`, `*.spec.*` and `*.d.ts` skipped;
 * non-recursive unless `recursive`). A module contributes every exported tool, tools inside exported
 * arrays, and tools on a default-exported object. The same tool object re-exported twice counts once;
 * two different tools with one name throw ToolValidationError. Files that cannot be found or imported
 * throw ConfigurationError; TypeScript files need a TS loader (run under tsx or `node --import tsx`).
 */
export class ToolLoader {
  readonly #cwd: string;
  readonly #recursive: boolean;
  readonly #import: (url: string) => Promise<unknown>;
  readonly #confineTo: string | undefined;

  constructor(options: ToolLoaderOptions = {}) {
    this.#cwd = options.cwd ?? process.cwd();
    this.#recursive = options.recursive ?? false;
    this.#import = options.importModule ?? importModule;
    this.#confineTo = options.confineTo === undefined ? undefined : this.#resolve(options.confineTo);
  }

  /** Tools exported by a module object (e.g. `import * as mod from './tools.js'`). */
  fromModule(moduleObject: object, origin = 'module'): Tool[] {
    return uniqueTools(collectTools(moduleObject, origin, true));
  }

  /** Tools exported by one file; throws when it exports none. */
  async fromFile(file: string): Promise<Tool[]> {
    const path = this.#resolve(file);
    const found = collectTools(await this.#importFile(path), this.#label(path), true);
    if (found.length === 0) throw new ConfigurationError(`No tools are exported by ${this.#label(path)} (export the values returned by tool({...}))`);
    return uniqueTools(found);
  }

  /** The tool (or array of tools) exported as `exportName` by the file: `"./tools.ts#search"`. */
  async fromReference(reference: string): Promise<Tool[]> {
    const at = reference.lastIndexOf('#');
    if (at <= 0 || at === reference.length - 1) throw new ConfigurationError(`Invalid tool reference "${reference}": expected "path#exportName"`);
    const path = this.#resolve(reference.slice(0, at));
    const name = reference.slice(at + 1);
    const moduleObject = (await this.#importFile(path)) as Record<string, unknown>;
    const value = ownGet(moduleObject, name);
    if (value === undefined) {
      const suggestion = closestMatch(name, Object.keys(moduleObject));
      const hint = suggestion === undefined ? '' : ` — did you mean "${suggestion}"?`;
      throw new ConfigurationError(`${this.#label(path)} has no export "${name}"${hint}`, { key: reference, ...(suggestion === undefined ? {} : { suggestion }) });
    }
    const found = collectTools({ [name]: value }, `${this.#label(path)}#${name}`, false);
    if (found.length === 0) throw new ConfigurationError(`Export "${name}" of ${this.#label(path)} is not a tool (wrap it with tool({...}))`, { key: reference });
    return uniqueTools(found);
  }

  /** Tools exported by an installed package (resolved from `cwd`): `"my-tools"`, `"@org/tools/search#find"`. */
  async fromPackage(source: string): Promise<Tool[]> {
    const at = source.lastIndexOf('#');
    const specifier = at > 0 ? source.slice(0, at) : source;
    const entry = resolvePackageEntry(specifier, this.#cwd);
    return at > 0 ? this.fromReference(`${entry}${source.slice(at)}`) : this.fromFile(entry);
  }

  /** Tools of every loadable file in a directory; throws when there are none at all. */
  async fromDirectory(directory: string): Promise<Tool[]> {
    const root = this.#resolve(directory);
    const files = await this.#listFiles(root);
    const found: Found[] = [];
    for (const file of files) found.push(...collectTools(await this.#importFile(file), this.#label(file), true));
    if (found.length === 0) throw new ConfigurationError(`No tools found in directory ${this.#label(root)}`);
    return uniqueTools(found);
  }

  /** Loads one source: a module object, a directory, a `file#export` reference or a file. */
  async load(source: ToolSource): Promise<Tool[]> {
    if (typeof source !== 'string') return this.fromModule(source);
    const kind = await this.#kind(source);
    if (kind === 'directory') return this.fromDirectory(source);
    if (kind === 'file') return this.fromFile(source);
    const at = source.lastIndexOf('#');
    if (at > 0 && (await this.#kind(source.slice(0, at))) === 'file') return this.fromReference(source);
    const specifier = at > 0 ? source.slice(0, at) : source;
    if (isBareSpecifier(specifier)) return this.fromPackage(source);
    throw new ConfigurationError(`Tool source not found: ${source} (resolved to ${this.#resolve(source.split('#')[0] ?? source)})`, { key: source });
  }

  /** Loads several sources; a name defined by two different tools throws ToolValidationError. */
  async loadAll(sources: Iterable<ToolSource>): Promise<Tool[]> {
    const found: Found[] = [];
    for (const source of sources) {
      const origin = typeof source === 'string' ? source : 'module';
      for (const loaded of await this.load(source)) found.push({ tool: loaded, origin });
    }
    return uniqueTools(found);
  }

  #resolve(path: string): string {
    return isAbsolute(path) ? path : resolve(this.#cwd, path);
  }

  #label(path: string): string {
    const rel = relative(this.#cwd, path);
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
  }

  async #kind(path: string): Promise<'file' | 'directory' | undefined> {
    try {
      const info = await stat(this.#resolve(path));
      return info.isDirectory() ? 'directory' : info.isFile() ? 'file' : undefined;
    } catch {
      return undefined;
    }
  }

  async #listFiles(directory: string, seen = new Set<string>()): Promise<string[]> {
    let entries;
    try {
      seen.add(await realpath(directory));
      entries = await readdir(directory, { withFileTypes: true });
    } catch (error) {
      throw new ConfigurationError(`Cannot read tool directory ${this.#label(directory)}: ${(error as Error).message}`, { cause: error });
    }
    const root = this.#confineTo === undefined ? undefined : await realOrSelf(this.#confineTo);
    const files: string[] = [];
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (entry.name.startsWith('.')) continue;
      const path = join(directory, entry.name);
      const kind = entry.isSymbolicLink() ? await this.#linkTarget(path, root) : entry.isDirectory() ? 'directory' : 'file';
      if (kind === 'directory') {
        if (this.#recursive && entry.name !== 'node_modules' && !seen.has(await realpath(path))) files.push(...(await this.#listFiles(path, seen)));
      } else if (kind === 'file' && TOOL_FILE_EXTENSIONS.includes(extname(entry.name)) && !SKIPPED_FILE.test(entry.name)) {
        files.push(path);
      }
    }
    return files;
  }

  /** What a symbolic link in a tool directory leads to; a link out of `confineTo` (or a broken one) throws. */
  async #linkTarget(path: string, root: string | undefined): Promise<'file' | 'directory' | 'other'> {
    let target: string;
    try {
      target = await realpath(path);
    } catch (error) {
      throw new ConfigurationError(`${this.#label(path)} is a broken symbolic link in a tool directory`, { key: path, cause: error });
    }
    if (root !== undefined && !isInside(root, target)) {
      throw new ConfigurationError(`${this.#label(path)} is a symbolic link to ${target}, outside the config file's directory (${root}); tools in a directory must stay inside it`, { key: path });
    }
    const info = await stat(target);
    return info.isDirectory() ? 'directory' : info.isFile() ? 'file' : 'other';
  }

  async #importFile(path: string): Promise<object> {
    if ((await this.#kind(path)) !== 'file') throw new ConfigurationError(`Tool file not found: ${path}`, { key: path });
    try {
      const loaded = await this.#import(pathToFileURL(path).href);
      return typeof loaded === 'object' && loaded !== null ? loaded : {};
    } catch (error) {
      throw importError(path, this.#label(path), error);
    }
  }
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

async function realOrSelf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return path;
  }
}

function importError(path: string, label: string, error: unknown): ConfigurationError {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (TS_EXTENSIONS.has(extname(path)) && typeof code === 'string' && NO_TS_LOADER.has(code)) {
    return new ConfigurationError(
      `Cannot import the TypeScript file ${label}: no TypeScript loader is registered. ` +
        'Run the process with tsx (`npx tsx your-script.ts`, or `node --import tsx …`), or compile the tools to .js first.',
      { key: path, cause: error },
    );
  }
  return new ConfigurationError(`Failed to load tools from ${label}: ${(error as Error)?.message ?? String(error)}`, { key: path, cause: error });
}

/**
 * Loads tools from one source or several (see {@link ToolLoader}): module objects, file paths,
 * `path#exportName` references and directories. Duplicate names across sources are rejected.
 */
export function loadTools(sources: ToolSource | Iterable<ToolSource>, options?: ToolLoaderOptions): Promise<Tool[]> {
  const list = typeof sources === 'string' || !isIterable(sources) ? [sources] : sources;
  return new ToolLoader(options).loadAll(list);
}

function isIterable(value: object): value is Iterable<ToolSource> {
  return Array.isArray(value) || typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
}
