/**
 * Loads a CommonJS bundle (scripts/bundle-tui.mjs writes them) through `vm.Script` with a V8 code
 * cache, so that a later start-up skips parsing and compiling it: Node 20 has no
 * `module.enableCompileCache`, and only a classic script (not an ES module) takes `cachedData`.
 * The cache is written after the bundle's code has run (`save()`), so it also holds the functions
 * compiled lazily on the way (for the trace viewer: everything up to the first frame and beyond).
 *
 * The cache never decides whether the command works: a missing, stale (another bundle, Node
 * version or V8 flag set), corrupt or unreadable cache file means a normal compile, and a cache
 * directory that cannot be written to means no cache. Cache files are named after a hash of the
 * bundle's content, Node's version, the architecture and V8's cache version tag (V8 version,
 * flags, CPU features); each carries a SHA-1 of its payload, checked before V8 sees it (V8 itself
 * only checks the source's length, and a release build does not verify the payload).
 */
import type * as Crypto from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import type * as V8 from 'node:v8';
import { Script } from 'node:vm';

// Required, not imported: an ES module import of a built-in reads every export, which makes Node
// load the lazy parts too (node:crypto's webcrypto, ~1 ms each on a 300 ms start-up budget).
const requireBuiltin = createRequire(import.meta.url);
const { createHash } = requireBuiltin('node:crypto') as typeof Crypto;
const { cachedDataVersionTag } = requireBuiltin('node:v8') as typeof V8;

/** How a load used the code cache. */
export type CodeCacheState =
  /** V8 took the cached code. */
  | 'hit'
  /** No cache file (first run, or a new bundle / Node version). */
  | 'missing'
  /** V8 refused the cache file (made by another V8 or with other flags). */
  | 'rejected'
  /** The file failed its checksum (truncated or damaged) and was not given to V8. */
  | 'corrupt'
  /** Caching is off (no cache directory). */
  | 'off';

/** A bundle evaluated by {@link loadCachedBundle}. */
export interface CachedBundle {
  /** What the bundle exported (`module.exports`). */
  exports: Record<string, unknown>;
  /** How the code cache was used. */
  cache: CodeCacheState;
  /** The cache file for this bundle, Node and V8 (undefined when caching is off). */
  cacheFile: string | undefined;
  /**
   * Writes the code cache when there was no usable one (`cache` is not `hit` or `off`): call it
   * once the bundle's code has done its work, so the functions it compiled are included. Writes
   * atomically (temporary file, then rename) and removes the cache files of older builds of the
   * same bundle (the newest three builds keep theirs). Never throws; returns whether a file was written.
   */
  save(): boolean;
}

/** Options of {@link loadCachedBundle}. */
export interface LoadCachedBundleOptions {
  /** Where the cache files live (created when missing); undefined: no code cache. */
  cacheDir: string | undefined;
  /**
   * A read-only directory holding a cache made at build time (scripts/build-code-cache.mjs writes
   * it next to the bundle), read when `cacheDir` has no file for this bundle, Node and V8: the
   * first run after an install then starts warm too. A file there that is damaged or refused is
   * treated as no file (the run's own cache is written to `cacheDir`).
   */
  shippedCacheDir?: string | undefined;
  /**
   * Further names the bundle's code can use, given to it like `require` and `module` (the run
   * bundle's `__agentlibImport`). Their names are part of the compiled code: a bundle evaluated
   * with other names does not take the cache made with these (V8 refuses it, and it is compiled).
   */
  parameters?: Readonly<Record<string, unknown>>;
}

/** A SHA-1 digest: the cache file's checksum (damage, not attacks: the file is the user's own). */
const CHECKSUM_BYTES = 20;
/** How many builds of one bundle keep a cache file. */
const KEPT_BUILDS = 3;

/**
 * Evaluates the CommonJS bundle `file` (an absolute path) like Node's own loader would (a function
 * of `exports`, `require`, `module`, `__filename`, `__dirname`), with the code cache from
 * `options.cacheDir` when there is a valid one. Resolves with undefined when `file` does not exist;
 * rejects when the bundle cannot be read or throws while it is evaluated (the caller falls back).
 */
export async function loadCachedBundle(file: string, options: LoadCachedBundleOptions): Promise<CachedBundle | undefined> {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (error) {
    if (isCode(error, 'ENOENT')) return undefined;
    throw error;
  }
  const name = options.cacheDir === undefined ? undefined : cacheFileName(file, source);
  const cacheFile = options.cacheDir === undefined || name === undefined ? undefined : join(options.cacheDir, name);
  let cached = cacheFile === undefined ? undefined : readCache(cacheFile);
  const extra = Object.entries(options.parameters ?? {});
  const wrapper = `(function (exports, require, module, __filename, __dirname${extra.map(([name]) => `, ${name}`).join('')}) {${source}\n})`;
  let script: Script | undefined;
  if (cached === undefined && name !== undefined && options.shippedCacheDir !== undefined) {
    // No cache of the user's own yet: the one made at build time, when it is whole and V8 takes it.
    const shipped = readCache(join(options.shippedCacheDir, name));
    if (shipped?.data !== undefined) {
      // Refused, V8 compiled the source instead: the script is used as it is, as with no cache.
      script = new Script(wrapper, { filename: file, cachedData: shipped.data });
      if (script.cachedDataRejected !== true) cached = shipped;
    }
  }
  const compiled = script ?? new Script(wrapper, cached?.data === undefined ? { filename: file } : { filename: file, cachedData: cached.data });
  let cache: CodeCacheState;
  if (cacheFile === undefined) cache = 'off';
  else if (cached === undefined) cache = 'missing';
  else if (cached.data === undefined) cache = 'corrupt';
  else cache = compiled.cachedDataRejected === true ? 'rejected' : 'hit';
  const run = compiled.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string, ...rest: unknown[]) => void;
  const module = { exports: {} as Record<string, unknown> };
  run(module.exports, createRequire(file), module, file, dirname(file), ...extra.map(([, value]) => value));
  let saved = false;
  return {
    exports: module.exports,
    cache,
    cacheFile,
    save: () => {
      if (saved || cacheFile === undefined || cache === 'hit') return false;
      saved = true;
      let data: Buffer;
      try {
        data = compiled.createCachedData();
      } catch {
        return false;
      }
      return writeCache(cacheFile, basename(file), data);
    },
  };
}

export { userCacheDir as codeCacheDir } from '../lib/core/cache-dir.js';

/** `<bundle name>.<hash of content, Node, arch, V8 tag>.v8cache`. */
export function cacheFileName(file: string, source: string): string {
  const key = createHash('sha1').update(source).update(`\0${process.version}\0${process.arch}\0${cachedDataVersionTag()}`).digest('hex');
  return `${basename(file)}.${key.slice(0, 24)}.v8cache`;
}

/** The cache file's payload when its checksum holds (`data` undefined: damaged); undefined: no file. */
function readCache(path: string): { data: Buffer | undefined } | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  if (bytes.length <= CHECKSUM_BYTES) return { data: undefined };
  const data = bytes.subarray(CHECKSUM_BYTES);
  const sum = createHash('sha1').update(data).digest();
  return { data: sum.equals(bytes.subarray(0, CHECKSUM_BYTES)) ? data : undefined };
}

/** Writes `data` behind its checksum to `path` (temporary file, then rename); false when it cannot. */
function writeCache(path: string, bundleName: string, data: Buffer): boolean {
  const dir = dirname(path);
  const temp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temp, Buffer.concat([createHash('sha1').update(data).digest(), data]));
    renameSync(temp, path);
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // an unwritable directory: there is nothing to clean up either
    }
    return false;
  }
  removeOlderCaches(dir, bundleName, basename(path));
  return true;
}

/**
 * Removes the cache files of older builds of the bundle `bundleName`, keeping the newest
 * {@link KEPT_BUILDS} (two installs of agentlib used in turn keep theirs). Best effort.
 */
function removeOlderCaches(dir: string, bundleName: string, keep: string): void {
  try {
    const others = readdirSync(dir)
      .filter((name) => name !== keep && name.startsWith(`${bundleName}.`) && name.endsWith('.v8cache'))
      .map((name) => ({ path: join(dir, name), mtime: statSync(join(dir, name)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    for (const { path } of others.slice(KEPT_BUILDS - 1)) rmSync(path, { force: true });
  } catch {
    // another process may be cleaning up too: nothing depends on it
  }
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
