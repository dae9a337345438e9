// Servers the tests need beyond Node: a throwaway redis-server and a throwaway PostgreSQL cluster,
// started by scripts/run-tests.mjs on free loopback ports for the length of one test run and
// stopped (their files removed) at the end. A server whose binaries are missing is not started:
// its tests then skip locally and fail under CI (test/support/requirements.ts). A URL already set
// in the environment (AGENTLIB_TEST_REDIS_URL, AGENTLIB_TEST_POSTGRES_URL) is used as it is.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** @param {string} command */
function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).stdout.trim() || undefined;
}

/** The directory of PostgreSQL's server binaries (initdb, pg_ctl), or undefined. */
function postgresBin() {
  if (onPath('initdb') !== undefined && onPath('pg_ctl') !== undefined) return '';
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((name) => existsSync(join(root, name, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

/** Runs `args` as the `postgres` user when this process is root (PostgreSQL refuses root). */
function asServerUser(args) {
  if (process.getuid?.() !== 0) return args;
  return ['runuser', '-u', 'postgres', '--', ...args];
}

/** @param {string[]} argv @param {string} what */
function run(argv, what) {
  const result = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${what} failed (${result.status}): ${(result.stderr || result.stdout || '').trim().slice(0, 2000)}`);
}

async function waitForPort(port, deadlineMs) {
  const { connect } = await import('node:net');
  const until = Date.now() + deadlineMs;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nothing listens on 127.0.0.1:${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts the services that are installed and not configured already.
 * @returns {Promise<{ env: Record<string, string>, stop: () => void, notes: string[] }>}
 */
export async function startTestServices(env = process.env) {
  /** @type {Record<string, string>} */
  const added = {};
  /** @type {(() => void)[]} */
  const stops = [];
  const notes = [];

  if (!env.AGENTLIB_TEST_REDIS_URL && onPath('redis-server') !== undefined) {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'agentlib-redis-'));
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--protected-mode', 'yes'], { stdio: 'ignore' });
    stops.push(() => {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    });
    try {
      await waitForPort(port, 10_000);
      added.AGENTLIB_TEST_REDIS_URL = `redis://127.0.0.1:${port}`;
      notes.push(`redis-server on 127.0.0.1:${port}`);
    } catch (error) {
      notes.push(`redis-server did not start: ${error.message}`);
    }
  }

  const bin = env.AGENTLIB_TEST_POSTGRES_URL ? undefined : postgresBin();
  if (bin !== undefined) {
    const tool = (name) => (bin === '' ? name : join(bin, name));
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'agentlib-pg-'));
    chmodSync(dir, 0o777);
    const data = join(dir, 'data');
    if (process.getuid?.() === 0) spawnSync('chown', ['postgres', dir]);
    let started = false;
    stops.push(() => {
      if (started) {
        const [command, ...rest] = asServerUser([tool('pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop']);
        spawnSync(command, rest, { stdio: 'ignore' });
      }
      rmSync(dir, { recursive: true, force: true });
    });
    try {
      run(asServerUser([tool('initdb'), '-D', data, '-U', 'agentlib', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']), 'initdb');
      const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
      run(asServerUser([tool('pg_ctl'), '-D', data, '-l', join(dir, 'log'), '-o', options, '-w', 'start']), 'pg_ctl start');
      started = true;
      added.AGENTLIB_TEST_POSTGRES_URL = `postgres://agentlib@127.0.0.1:${port}/postgres`;
      notes.push(`PostgreSQL on 127.0.0.1:${port}`);
    } catch (error) {
      notes.push(`PostgreSQL did not start: ${error.message}`);
    }
  }

  let stopped = false;
  return {
    env: added,
    notes,
    stop() {
      if (stopped) return;
      stopped = true;
      for (const stop of stops.reverse()) {
        try {
          stop();
        } catch {
          // best effort: the temp directories are removed either way
        }
      }
    },
  };
}
