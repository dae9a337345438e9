import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../../cli/usage-error.js';
import type { CommandArguments } from '../command-module.js';
import { bearerTokenProblem, isLoopbackHost } from '../../lib/serve/bearer-auth.js';

/** The server settings of `agentlib serve`, checked. */
export interface ServeSettings {
  port: number;
  host: string;
  authToken: string | undefined;
  cors: string | undefined;
  maxConcurrency: number;
  timeoutMs: number;
  bodyTimeoutMs: number;
  graceMs: number;
  playground: boolean;
  quiet: boolean;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function number(name: string, value: unknown, check: (n: number) => boolean, what: string): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n) || !check(n)) throw new UsageError(`--${name} must be ${what} (got ${String(value)}).`);
  return n;
}

/** The token in a file: its text without one trailing newline (`\n` or `\r\n`). */
function tokenFromFile(path: string, cwd: string): string {
  let content: string;
  try {
    content = readFileSync(resolve(cwd, path), 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read --auth-token-file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  return content.replace(/\r?\n$/, '');
}

/**
 * The bearer token: `--auth-token`, `--auth-token-file` (not both) or `AGENTLIB_AUTH_TOKEN` (used
 * when neither flag is given; empty counts as unset). A token that could never match (empty,
 * whitespace) or is shorter than 16 characters is refused.
 */
function authTokenSetting(args: CommandArguments, env: Readonly<Record<string, string | undefined>>, cwd: string): string | undefined {
  const flag = typeof args.authToken === 'string' ? args.authToken : undefined;
  const file = typeof args.authTokenFile === 'string' ? args.authTokenFile : undefined;
  if (flag !== undefined && file !== undefined) throw new UsageError('Give --auth-token or --auth-token-file, not both.');
  let token: string | undefined;
  let source: string;
  if (flag !== undefined) {
    token = flag;
    source = '--auth-token';
  } else if (file !== undefined) {
    token = tokenFromFile(file, cwd);
    source = `--auth-token-file ${file}`;
  } else {
    token = env['AGENTLIB_AUTH_TOKEN'] === '' ? undefined : env['AGENTLIB_AUTH_TOKEN'];
    source = 'AGENTLIB_AUTH_TOKEN';
  }
  if (token === undefined) return undefined;
  const problem = bearerTokenProblem(token);
  if (problem !== undefined) throw new UsageError(`The auth token from ${source} cannot be used: ${problem}.`);
  if (token.length < 16) throw new UsageError(`The auth token from ${source} must be at least 16 characters.`);
  return token;
}

/**
 * Reads and checks the server flags: a non-loopback `--host` requires a token (`--auth-token`,
 * `--auth-token-file` or `AGENTLIB_AUTH_TOKEN`); `--cors` must be an origin (`https://app.example`)
 * or `*`. `cwd` resolves a relative `--auth-token-file`.
 */
export function serveSettings(args: CommandArguments, env: Readonly<Record<string, string | undefined>>, cwd = process.cwd()): ServeSettings {
  const host = text(args.host) ?? '127.0.0.1';
  const authToken = authTokenSetting(args, env, cwd);
  if (!isLoopbackHost(host) && authToken === undefined) {
    throw new UsageError(`--host ${host} can be reached from other machines: set --auth-token <token>, --auth-token-file <path> or AGENTLIB_AUTH_TOKEN (clients send Authorization: Bearer <token>).`);
  }
  const cors = text(args.cors);
  if (cors !== undefined && cors !== '*') {
    let origin: string | undefined;
    try {
      origin = new URL(cors).origin;
    } catch {
      origin = undefined;
    }
    if (origin !== cors) throw new UsageError(`--cors expects an origin such as http://localhost:5173 (scheme, host and port only; got "${cors}").`);
  }
  return {
    port: number('port', args.port ?? 8000, (n) => Number.isInteger(n) && n >= 0 && n <= 65535, 'an integer from 0 to 65535'),
    host,
    authToken,
    cors,
    maxConcurrency: number('max-concurrency', args.maxConcurrency ?? 32, (n) => Number.isInteger(n) && n >= 1, 'a positive integer'),
    timeoutMs: number('timeout', args.timeout ?? 120, (n) => n > 0, 'a positive number of seconds') * 1000,
    bodyTimeoutMs: number('body-timeout', args.bodyTimeout ?? 30, (n) => n > 0, 'a positive number of seconds') * 1000,
    graceMs: number('shutdown-grace', args.shutdownGrace ?? 10, (n) => n >= 0, 'a number of seconds (0 or more)') * 1000,
    playground: args.playground !== false,
    quiet: args.quiet === true,
  };
}
