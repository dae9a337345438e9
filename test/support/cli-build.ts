import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The launcher the tests spawn. */
export const binPath = join(repoRoot, 'bin', 'agentlib.js');

const builtMain = join(repoRoot, 'dist', 'cli', 'main.js');

/**
 * Makes sure `dist/` holds a CLI built from the current sources: builds once (tsc, the terminal UI bundles, then the launcher's help files) when
 * dist/cli/main.js is missing or older than a file in cli/, commands/, lib/ or tui/. `npm ci` builds through
 * `prepare`, so on a fresh clone this is a no-op.
 */
export function ensureCliBuilt(): void {
  if (existsSync(builtMain) && newestSource() <= statSync(builtMain).mtimeMs) return;
  const result = spawnSync(process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
    cwd: repoRoot,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (!existsSync(builtMain)) {
    throw new Error(`building the CLI failed (exit ${String(result.status)}):\n${result.stdout}${result.stderr}`);
  }
  for (const [script, what] of [
    ['bundle-tui.mjs', 'bundling the terminal UI'],
    ['build-help-cache.mjs', 'rendering the help files'],
  ] as const) {
    const step = spawnSync(process.execPath, [join(repoRoot, 'scripts', script)], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (step.status !== 0) throw new Error(`${what} failed:\n${step.stdout}${step.stderr}`);
  }
}

function newestSource(): number {
  let newest = 0;
  for (const dir of ['cli', 'commands', 'lib', 'tui']) {
    const path = join(repoRoot, dir);
    if (!existsSync(path)) continue;
    for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && /\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}
