import { UsageError } from '../../cli/usage-error.js';
import type { CommandArguments } from '../command-module.js';
import { isLoopbackHost } from '../../lib/serve/bearer-auth.js';

/** The server settings of `agentlib serve`, checked. */
export interface ServeSettings {
  port: number;
  host: string;
  authToken: string | undefined;
  cors: string | undefined;
  maxConcurrency: number;
  timeoutMs: number;
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

/**
 * Reads and checks the server flags: a non-loopback `--host` requires `--auth-token` (or
 * `AGENTLIB_AUTH_TOKEN`); `--cors` must be an origin (`https://app.example`) or `*`.
 */
export function serveSettings(args: CommandArguments, env: Readonly<Record<string, string | undefined>>): ServeSettings {
  const host = text(args.host) ?? '127.0.0.1';
  const authToken = text(args.authToken) ?? text(env['AGENTLIB_AUTH_TOKEN']);
  if (!isLoopbackHost(host) && authToken === undefined) {
    throw new UsageError(`--host ${host} can be reached from other machines: set --auth-token <token> or AGENTLIB_AUTH_TOKEN (clients send Authorization: Bearer <token>).`);
  }
  if (authToken !== undefined && authToken.length < 16) throw new UsageError('The auth token must be at least 16 characters.');
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
    graceMs: number('shutdown-grace', args.shutdownGrace ?? 10, (n) => n >= 0, 'a number of seconds (0 or more)') * 1000,
    playground: args.playground !== false,
    quiet: args.quiet === true,
  };
}
