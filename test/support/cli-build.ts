import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error -- a plain .mjs script without type declarations
import { BUILD_INPUT_DIRS, isBuildUpToDate as isUpToDate } from '../../scripts/build-fingerprint.mjs';

const isBuildUpToDate = isUpToDate as (dir?: string) => boolean;

/** The repository root. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The launcher the tests spawn. */
export const binPath = join(repoRoot, 'bin', 'agentlib.js');

/**
 * What `npm run build` writes that the built binary runs, relative to the repository root: the
 * compiled CLI (tsc), the bundles of scripts/bundle-tui.mjs and the first and last
 * help cache files (scripts/build-help-cache.mjs writes 40.txt … 100.txt in order).
 */
export const BUILD_OUTPUTS: readonly string[] = [
  join('dist', 'cli', 'main.js'),
  join('dist', 'tui', 'chat', 'run-chat.bundle.js'),
  join('dist', 'tui', 'trace-viewer', 'run-viewer.bundle.js'),
  join('dist', 'cli', 'trace-view-fast-path.bundle.cjs'),
  join('dist', 'cli', 'program.bundle.js'),
  join('dist', 'cli', 'help', '40.txt'),
  join('dist', 'cli', 'help', '100.txt'),
];

/** Directories whose files go into the build (sources, the launcher, the build scripts). */
export const BUILD_SOURCE_DIRS: readonly string[] = BUILD_INPUT_DIRS;

/**
 * Whether `dist/` must be rebuilt: some output is missing (`undefined`), or the newest source is
 * newer than the OLDEST output — each build step writes its own files, so one stale output (a
 * bundle left from an earlier build, say) is enough. Pure: takes modification times in ms.
 */
export function isBuildStale(newestSourceMs: number, outputMtimesMs: readonly (number | undefined)[]): boolean {
  if (outputMtimesMs.length === 0) return true;
  let oldest = Infinity;
  for (const mtime of outputMtimesMs) {
    if (mtime === undefined) return true;
    oldest = Math.min(oldest, mtime);
  }
  return newestSourceMs > oldest;
}

/**
 * Makes sure `dist/` holds a CLI built from the current sources: runs `npm run build` (tsc, the
 * terminal UI bundles, then the launcher's help files) when any of BUILD_OUTPUTS is missing or
 * older than a file in BUILD_SOURCE_DIRS (see `isBuildStale`), or when the build's fingerprint
 * (scripts/build-fingerprint.mjs) is missing or differs from the sources'. `npm ci` builds through
 * `prepare`, so on a fresh clone this is a no-op.
 */
export function ensureCliBuilt(): void {
  if (!isBuildStale(newestSource(), outputMtimes()) && isBuildUpToDate(repoRoot)) return;
  const result = spawnSync('npm', ['run', 'build'], {
    cwd: repoRoot,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    shell: process.platform === 'win32',
  });
  const missing = BUILD_OUTPUTS.filter((output) => !existsSync(join(repoRoot, output)));
  if (result.status !== 0 || missing.length > 0) {
    const what = missing.length > 0 ? ` (missing: ${missing.join(', ')})` : '';
    throw new Error(`building the CLI with npm run build failed (exit ${String(result.status)})${what}:\n${result.stdout}${result.stderr}`);
  }
}

/** The modification times of BUILD_OUTPUTS (undefined: missing). */
function outputMtimes(): (number | undefined)[] {
  return BUILD_OUTPUTS.map((output) => {
    const path = join(repoRoot, output);
    return existsSync(path) ? statSync(path).mtimeMs : undefined;
  });
}

/** The newest modification time of a source or script file in BUILD_SOURCE_DIRS. */
function newestSource(): number {
  let newest = 0;
  for (const dir of BUILD_SOURCE_DIRS) {
    const path = join(repoRoot, dir);
    if (!existsSync(path)) continue;
    for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && /\.([cm]?[jt]s|tsx)$/.test(entry.name)) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}
