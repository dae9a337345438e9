import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The root directory of the agentlib package: the nearest ancestor of `from` (a file URL or path;
 * default this module) whose package.json is named `agentlib`. Works from `lib/config/` (tsx) and
 * from `dist/lib/config/` (compiled), and inside `node_modules/agentlib`.
 */
export function findPackageRoot(from: string = import.meta.url, name = 'agentlib'): string | undefined {
  let dir = dirname(from.startsWith('file:') ? fileURLToPath(from) : from);
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === name) return dir;
      } catch {
        // An unreadable manifest (a fixture, a half-written file): keep walking up.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
