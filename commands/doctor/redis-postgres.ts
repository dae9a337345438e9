import { connect, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { AgentFileConfig } from '../../lib/config/types.js';
import { checkResult, envValue, formatMs, type CheckResult } from './check.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A backend URL to probe. */
export interface BackendTarget {
  /** Where it came from: an environment variable or `session.url`. */
  source: string;
  kind: 'redis' | 'postgres';
  value: string;
  /** AGENTLIB_* variables and the agent file are agentlib's own: required. Generic ones are not. */
  required: boolean;
}

/** The environment variables read, in order: agentlib's own (required when set) and the common ones. */
export const BACKEND_VARIABLES: readonly { name: string; kind: 'redis' | 'postgres'; required: boolean }[] = [
  { name: 'AGENTLIB_REDIS_URL', kind: 'redis', required: true },
  { name: 'REDIS_URL', kind: 'redis', required: false },
  { name: 'AGENTLIB_POSTGRES_URL', kind: 'postgres', required: true },
  { name: 'AGENTLIB_DATABASE_URL', kind: 'postgres', required: true },
  { name: 'POSTGRES_URL', kind: 'postgres', required: false },
  { name: 'DATABASE_URL', kind: 'postgres', required: false },
];

const DEFAULT_PORTS = { redis: 6379, postgres: 5432 } as const;
const SCHEMES = { redis: ['redis:', 'rediss:'], postgres: ['postgres:', 'postgresql:'] } as const;

/** The configured backends: the variables above that are set, and `session.url` of a redis session store. */
export function backendTargets(env: Env, config?: AgentFileConfig): BackendTarget[] {
  const targets: BackendTarget[] = [];
  for (const variable of BACKEND_VARIABLES) {
    const value = envValue(env, variable.name);
    if (value !== undefined) targets.push({ source: variable.name, kind: variable.kind, value, required: variable.required });
  }
  const session = config?.session;
  if (session?.store === 'redis' && session.url !== undefined) targets.push({ source: 'session.url', kind: 'redis', value: session.url, required: true });
  return targets;
}

/** What a probe sends to make the server answer, and how it connects. */
export interface ProbeGreeting {
  /** Bytes that make the server answer (no credentials); the first byte back is the answer. */
  greeting?: Uint8Array;
  /** Connect with TLS: the finished handshake is the answer. */
  tls?: boolean;
}

/** Redis: an inline PING (a server that wants a password answers -NOAUTH: still an answer). */
const REDIS_PING = Buffer.from('PING\r\n');
/** Postgres: an SSLRequest (length 8, code 80877103); the server answers one byte, S or N. */
const POSTGRES_SSL_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);

/** How to make a backend of this URL scheme answer. */
export function greetingFor(kind: BackendTarget['kind'], protocol: string): ProbeGreeting {
  if (protocol === 'rediss:') return { tls: true };
  return { greeting: kind === 'redis' ? REDIS_PING : POSTGRES_SSL_REQUEST };
}

/**
 * Connects to host:port and waits for the server to answer (`how`: the first byte back after the
 * greeting, or the TLS handshake; with neither, the connection itself), then closes; resolves how
 * long it took, or why it failed. `timeoutMs` bounds the whole probe: a server that accepts the
 * connection and never answers times out.
 */
export function tcpProbe(
  host: string,
  port: number,
  timeoutMs: number,
  signal?: AbortSignal,
  how: ProbeGreeting = {},
): Promise<{ ok: true; ms: number } | { ok: false; reason: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket: Socket = how.tls === true ? connectTls({ host, port, servername: host, rejectUnauthorized: false }) : connect({ host, port });
    let done = false;
    const finish = (result: { ok: true; ms: number } | { ok: false; reason: string; timedOut: boolean }): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(result);
    };
    const onAbort = (): void => finish({ ok: false, reason: 'cancelled', timedOut: false });
    const timer = setTimeout(() => finish({ ok: false, reason: `no answer within ${formatMs(timeoutMs)}`, timedOut: true }), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    const answered = (): void => finish({ ok: true, ms: Math.round(performance.now() - started) });
    if (how.tls === true) socket.once('secureConnect', answered);
    else if (how.greeting === undefined) socket.once('connect', answered);
    else {
      const greeting = how.greeting;
      socket.once('connect', () => socket.write(greeting));
      socket.once('data', answered);
      socket.once('end', () => finish({ ok: false, reason: 'closed without answering', timedOut: false }));
    }
    socket.once('error', (error: NodeJS.ErrnoException) => finish({ ok: false, reason: error.code ?? error.message, timedOut: false }));
  });
}

/** Probes one backend: connects to its host and port and waits for an answer to a greeting (no credentials sent). */
export async function probeBackend(target: BackendTarget, options: { timeoutMs: number; signal?: AbortSignal; offline?: boolean }): Promise<CheckResult> {
  const base = { id: `backend:${target.source}`, title: `${target.kind === 'redis' ? 'Redis' : 'Postgres'} (${target.source})`, required: target.required };
  let url: URL;
  try {
    url = new URL(target.value);
  } catch {
    return checkResult({ ...base, status: 'fail', detail: `${target.source} is not a URL`, hint: `set ${target.source} to a ${target.kind}:// URL` });
  }
  if (!(SCHEMES[target.kind] as readonly string[]).includes(url.protocol)) {
    return checkResult({ ...base, required: false, status: 'skip', detail: `not a ${target.kind === 'redis' ? 'Redis' : 'Postgres'} URL (${url.protocol}//…)` });
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port === '' ? DEFAULT_PORTS[target.kind] : Number(url.port);
  const shown = `${url.protocol}//${url.host === '' ? '' : `${url.hostname}:${port}`}`;
  const data: Record<string, unknown> = { kind: target.kind, source: target.source, address: shown };
  if (host === '') return checkResult({ ...base, status: 'skip', detail: `${shown}: no host (a Unix socket?); not probed`, data });
  if (options.offline === true) return checkResult({ ...base, status: 'skip', detail: `not probed (--offline): ${shown}`, data });
  const result = await tcpProbe(host, port, options.timeoutMs, options.signal, greetingFor(target.kind, url.protocol));
  if (result.ok) return checkResult({ ...base, status: 'ok', detail: `${shown} answers (${formatMs(result.ms)})`, data: { ...data, latencyMs: result.ms } });
  if (result.reason === 'cancelled') return checkResult({ ...base, status: 'skip', detail: 'cancelled', data });
  return checkResult({
    ...base,
    status: 'fail',
    detail: `cannot reach ${host}:${port} (${result.reason})`,
    hint: `is the ${target.kind === 'redis' ? 'Redis' : 'Postgres'} server running? check ${target.source}`,
    data: { ...data, reason: result.timedOut ? 'timeout' : 'unreachable' },
  });
}

/** Probes every configured backend in parallel; one skip result when none is configured. */
export async function checkBackends(env: Env, config: AgentFileConfig | undefined, options: { timeoutMs: number; signal?: AbortSignal; offline?: boolean }): Promise<CheckResult[]> {
  const targets = backendTargets(env, config);
  if (targets.length === 0) {
    return [checkResult({ id: 'backends', title: 'Redis / Postgres', status: 'skip', required: false, detail: `none configured (${BACKEND_VARIABLES.map((v) => v.name).join(', ')} unset)` })];
  }
  return Promise.all(targets.map((target) => probeBackend(target, options)));
}
