import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import { closestMatch } from '../core/suggest.js';

/** Where a path written in a config file leads. */
export type ConfinedPath =
  | { ok: true; path: string; kind: 'file' | 'directory' }
  | { ok: false; reason: 'outside' | 'symlink-outside' | 'missing' | 'other'; path: string; message: string; suggestion?: string };

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Resolves `written` against `baseDir` and checks that it stays inside `baseDir`'s tree, both as
 * written (`../x` is refused) and after following symbolic links; then that it exists. A missing
 * path comes with the closest existing name in its directory as a suggestion.
 */
export function confinePath(baseDir: string, written: string): ConfinedPath {
  const path = resolve(baseDir, written);
  if (!inside(baseDir, path)) {
    return { ok: false, reason: 'outside', path, message: `"${written}" is outside the config file's directory (${baseDir})` };
  }
  if (!existsSync(path)) {
    const parent = dirname(path);
    let suggestion: string | undefined;
    try {
      const near = closestMatch(basename(path), readdirSync(parent));
      if (near !== undefined) suggestion = relative(baseDir, resolve(parent, near)).split('\\').join('/');
    } catch {
      // The parent directory does not exist either: no suggestion.
    }
    const hint = suggestion === undefined ? {} : { suggestion: written.startsWith('./') ? `./${suggestion}` : suggestion };
    return { ok: false, reason: 'missing', path, message: `"${written}" does not exist (resolved to ${path})`, ...hint };
  }
  if (!inside(realOrSelf(baseDir), realOrSelf(path))) {
    return { ok: false, reason: 'symlink-outside', path, message: `"${written}" is a symbolic link to ${realOrSelf(path)}, outside the config file's directory` };
  }
  const info = statSync(path);
  if (info.isDirectory()) return { ok: true, path, kind: 'directory' };
  if (info.isFile()) return { ok: true, path, kind: 'file' };
  return { ok: false, reason: 'other', path, message: `"${written}" is neither a file nor a directory` };
}
