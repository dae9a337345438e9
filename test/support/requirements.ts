// What a test needs from the machine beyond Node: tmux (real-terminal tests), Chromium (browser
// tests), xmllint (JUnit schema checks), a Redis or PostgreSQL server (scripts/run-tests.mjs
// starts throwaway ones when redis-server and PostgreSQL are installed). When one is missing, a local run skips the test and says
// why; a CI run (CI set) fails instead, so a CI machine without the tool cannot pass by skipping.
import { spawnSync } from 'node:child_process';
import { chromiumMissing } from './chromium.js';

/** Something a test needs from the machine. */
export type Requirement = 'tmux' | 'chromium' | 'xmllint' | 'redis' | 'postgres';

/** The tools `.ci/run` installs (with apt-get) when they are missing: the command it looks for and the Debian package. */
export const INSTALLED_BY_CI = [
  { command: 'chromium', package: 'chromium' },
  { command: 'tmux', package: 'tmux' },
  { command: 'redis-server', package: 'redis-server' },
  { command: 'initdb', package: 'postgresql' },
  { command: 'xmllint', package: 'libxml2-utils' },
] as const;

/** Where a test that needs a server finds it: a loopback URL (the no-network guard refuses others). */
export const SERVICE_URL_VARIABLES = { redis: 'AGENTLIB_TEST_REDIS_URL', postgres: 'AGENTLIB_TEST_POSTGRES_URL' } as const;

type Env = Readonly<Record<string, string | undefined>>;

/** Whether this is a CI run: `CI` is set to anything but '', '0' or 'false'. */
export function isCi(env: Env = process.env): boolean {
  const value = (env['CI'] ?? '').trim().toLowerCase();
  return value !== '' && value !== '0' && value !== 'false';
}

/** Why `requirement` is not available under `env`, or undefined when it is. */
export function missingReason(requirement: Requirement, env: Env = process.env): string | undefined {
  switch (requirement) {
    case 'tmux':
      return spawnSync('tmux', ['-V'], { stdio: 'ignore', env }).status === 0 ? undefined : 'tmux is not installed (.ci/run installs it)';
    case 'chromium':
      return chromiumMissing();
    case 'xmllint':
      return spawnSync('xmllint', ['--version'], { stdio: 'ignore', env }).status === 0 ? undefined : 'xmllint is not installed (Debian libxml2-utils; .ci/run installs it)';
    case 'redis':
    case 'postgres': {
      const variable = SERVICE_URL_VARIABLES[requirement];
      return (env[variable] ?? '').trim() === ''
        ? `no ${requirement} server: scripts/run-tests.mjs starts one when ${requirement === 'redis' ? 'redis-server' : 'PostgreSQL (initdb, pg_ctl)'} is installed, or set ${variable} to a loopback URL`
        : undefined;
    }
  }
}

/** A test that needs something missing in a CI run. */
export class RequirementMissingError extends Error {
  constructor(requirement: Requirement, reason: string) {
    super(`this test needs ${requirement}, and CI is set, so it fails instead of skipping: ${reason}`);
    this.name = 'RequirementMissingError';
  }
}

/**
 * The node:test options of a test or suite that needs `requirement`:
 * `describe('…', requires('tmux'), () => …)`. Available → `{ skip: false }`; missing in a local run
 * → `{ skip: reason }`; missing in a CI run → throws RequirementMissingError, which fails the file.
 */
export function requires(requirement: Requirement, env: Env = process.env, missing = missingReason(requirement, env)): { skip: string | false } {
  if (missing === undefined) return { skip: false };
  if (isCi(env)) throw new RequirementMissingError(requirement, missing);
  return { skip: missing };
}

/** The URL of the Redis or PostgreSQL server for tests (call it inside a suite guarded by `requires`). */
export function serviceUrl(requirement: 'redis' | 'postgres', env: Env = process.env): string {
  const url = (env[SERVICE_URL_VARIABLES[requirement]] ?? '').trim();
  if (url === '') throw new Error(`no ${requirement} server for this test: set ${SERVICE_URL_VARIABLES[requirement]}`);
  return url;
}
