import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** Thrown when a path given to a tool is refused (outside the root, absolute, missing, …). */
export class PathRefusedError extends Error {
  override readonly name = 'PathRefusedError';
}

/** True when `child` (an absolute, normalised path) is `root` or inside it. */
export function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The real path of an existing directory to confine tools to. Throws when it does not exist or is
 * not a directory.
 */
export function resolveRoot(root: string): string {
  let real: string;
  try {
    real = realpathSync(resolve(root));
  } catch {
    throw new PathRefusedError(`root directory not found: ${root}`);
  }
  if (!statSync(real).isDirectory()) throw new PathRefusedError(`root is not a directory: ${root}`);
  return real;
}

/**
 * Resolves a model-supplied relative path inside `realRoot` (already a real path, see resolveRoot).
 * Refuses absolute paths, NUL bytes, `..` escapes and symlinks whose target lies outside the root,
 * and paths that do not exist. Returns the real path and the path relative to the root (with `/`).
 */
export function resolveInside(realRoot: string, requested: string): { real: string; relative: string } {
  const input = requested.trim() === '' ? '.' : requested.trim();
  if (input.includes('\0')) throw new PathRefusedError('path contains a NUL byte');
  if (isAbsolute(input) || /^[A-Za-z]:[\\/]/.test(input) || input.startsWith('\\')) {
    throw new PathRefusedError(`absolute paths are not allowed (give a path relative to the root): ${requested}`);
  }
  const lexical = resolve(realRoot, input);
  if (!isInside(realRoot, lexical)) throw new PathRefusedError(`path is outside the root: ${requested}`);
  let real: string;
  try {
    real = realpathSync(lexical);
  } catch {
    throw new PathRefusedError(`no such file or directory: ${requested}`);
  }
  if (!isInside(realRoot, real)) throw new PathRefusedError(`path resolves outside the root (symlink): ${requested}`);
  return { real, relative: toPosix(relative(realRoot, real)) || '.' };
}

/** A path with `/` separators. */
export function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** True when the bytes look binary: a NUL byte in the first 8,000 bytes (git's heuristic). */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8000);
  for (let i = 0; i < end; i += 1) if (bytes[i] === 0) return true;
  return false;
}
