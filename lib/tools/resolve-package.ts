import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { ConfigurationError } from '../core/errors/configuration-error.js';

const BARE_SPECIFIER = /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?:\/[\w./-]+)?$/i;

const SOURCE_FILE = /\.[cm]?[jt]s$/;

/**
 * True for `pkg`, `@scope/pkg` and `pkg/sub/path` (not `./x`, `/x`, `C:\x`, URLs, or a file name
 * such as `tools.ts`, which is a path relative to the config).
 */
export function isBareSpecifier(source: string): boolean {
  if (!BARE_SPECIFIER.test(source) || source.startsWith('.')) return false;
  const name = source.split('/').slice(0, source.startsWith('@') ? 2 : 1).join('/');
  return !SOURCE_FILE.test(name);
}

/**
 * Resolves a package specifier to its entry file as seen from `cwd`: Node's resolution first
 * (packages with `require`/`default` exports or `main`), then the package's `exports` `import`
 * condition for ESM-only packages.
 */
export function resolvePackageEntry(specifier: string, cwd: string): string {
  try {
    return createRequire(join(cwd, 'noop.js')).resolve(specifier);
  } catch (error) {
    const entry = resolveEsmEntry(specifier, cwd);
    if (entry !== undefined) return entry;
    throw new ConfigurationError(`Cannot find package "${specifier}" from ${cwd} (is it installed?)`, { key: specifier, cause: error });
  }
}

function splitSpecifier(specifier: string): { name: string; subpath: string } {
  const parts = specifier.split('/');
  const count = specifier.startsWith('@') ? 2 : 1;
  const rest = parts.slice(count).join('/');
  return { name: parts.slice(0, count).join('/'), subpath: rest ? `./${rest}` : '.' };
}

function resolveEsmEntry(specifier: string, cwd: string): string | undefined {
  const { name, subpath } = splitSpecifier(specifier);
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const root = join(dir, 'node_modules', name);
    const manifest = join(root, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: unknown; main?: string; module?: string };
      const target = exportTarget(pkg.exports, subpath) ?? (subpath === '.' ? (pkg.module ?? pkg.main ?? 'index.js') : subpath);
      const file = join(root, target);
      return existsSync(file) ? file : undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

function exportTarget(exports: unknown, subpath: string): string | undefined {
  if (typeof exports === 'string') return subpath === '.' ? exports : undefined;
  if (typeof exports !== 'object' || exports === null) return undefined;
  const map = exports as Record<string, unknown>;
  const keys = Object.keys(map);
  const entry = keys.some((key) => key.startsWith('.')) ? map[subpath] : subpath === '.' ? map : undefined;
  return conditionTarget(entry);
}

function conditionTarget(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (typeof entry !== 'object' || entry === null) return undefined;
  const conditions = entry as Record<string, unknown>;
  for (const condition of ['import', 'node', 'default']) {
    const target = conditionTarget(conditions[condition]);
    if (target !== undefined) return target;
  }
  return undefined;
}
