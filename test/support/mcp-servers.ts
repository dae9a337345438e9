import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { MCPStdioServerConfig } from '../../lib/mcp/server-config.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The entry of `@modelcontextprotocol/server-everything` (the reference test server, from npm). */
export const EVERYTHING = `${root}node_modules/@modelcontextprotocol/server-everything/dist/index.js`;
/** The stdio fixture server of the client tests. */
export const FIXTURE_SERVER = `${root}test/lib/mcp/fixtures/fixture-server.mjs`;

/** server-everything over stdio. */
export function everythingStdio(name = 'everything'): MCPStdioServerConfig & { name: string } {
  return { name, command: process.execPath, args: [EVERYTHING, 'stdio'] };
}

/** The fixture server over stdio. */
export function fixtureStdio(name = 'fixture'): MCPStdioServerConfig & { name: string } {
  return { name, command: process.execPath, args: [FIXTURE_SERVER] };
}

/** A free loopback TCP port (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A server-everything process serving HTTP (`streamableHttp` at /mcp, or the older `sse` at /sse). */
export interface RunningEverything {
  url: string;
  child: ChildProcess;
  close(): Promise<void>;
}

/** Starts server-everything on a free port and resolves once it says it is listening (read from its output, no polling). */
export async function startEverythingHttp(mode: 'streamableHttp' | 'sse' = 'streamableHttp'): Promise<RunningEverything> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/listening on port|running on port/i.test(output)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}: ${output}`)));
  });
  child.stdout.resume();
  child.stderr.resume();
  const path = mode === 'sse' ? '/sse' : '/mcp';
  return {
    url: `http://127.0.0.1:${port}${path}`,
    child,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** True while a process with this id exists. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
