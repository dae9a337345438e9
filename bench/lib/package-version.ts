import { readFileSync } from 'node:fs';

/** The installed version of a package in bench/node_modules (read from its package.json). */
export function packageVersion(name: string): string {
  const url = new URL(`../node_modules/${name}/package.json`, import.meta.url);
  const parsed = JSON.parse(readFileSync(url, 'utf8')) as { version?: unknown };
  return `${name}@${typeof parsed.version === 'string' ? parsed.version : '?'}`;
}
