import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * agentlib's version, read from its package.json at run time (found by walking up from this file,
 * which sits in `cli/` from source and in `dist/cli/` when built).
 */
export function packageVersion(): string {
  cached ??= findVersion(dirname(fileURLToPath(import.meta.url)));
  return cached;
}

function findVersion(start: string): string {
  let dir = start;
  for (let depth = 0; depth < 5; depth++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'agentlib' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // no package.json here: keep walking up
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return '0.0.0-unknown';
}
