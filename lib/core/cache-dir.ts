import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The directory for agentlib's caches (the V8 code cache of `trace view`, compiled tool modules):
 * `AGENTLIB_CACHE_DIR` when set, else the platform's cache directory (`$XDG_CACHE_HOME/agentlib`, `~/.cache/agentlib`, `~/Library/Caches/agentlib`
 * on macOS, `%LOCALAPPDATA%\agentlib\cache` on Windows); undefined when there is no home directory.
 */
export function userCacheDir(env: Readonly<Record<string, string | undefined>>, platform: string = process.platform, home: () => string = homedir): string | undefined {
  const explicit = env['AGENTLIB_CACHE_DIR'];
  if (explicit !== undefined && explicit !== '') return explicit;
  if (platform === 'win32' && env['LOCALAPPDATA']) return join(env['LOCALAPPDATA'], 'agentlib', 'cache');
  const xdg = env['XDG_CACHE_HOME'];
  if (platform !== 'darwin' && platform !== 'win32' && xdg !== undefined && xdg !== '') return join(xdg, 'agentlib');
  let dir: string;
  try {
    dir = home();
  } catch {
    return undefined;
  }
  if (dir === '') return undefined;
  return platform === 'darwin' ? join(dir, 'Library', 'Caches', 'agentlib') : join(dir, '.cache', 'agentlib');
}
