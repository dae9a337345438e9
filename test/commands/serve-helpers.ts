// Helpers of the tests that spawn `agentlib serve` (the built binary) and call it over loopback.
import assert from 'node:assert/strict';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from '../support/cli-build.js';
import { agentlib, type CliProcess } from './run-helpers.js';

/** Starts `agentlib serve … --port 0` and waits for the banner; returns the URL and the collected output. */
export async function startServe(args: readonly string[], options: { cwd: string; env: Record<string, string> }): Promise<{ url: string; child: CliProcess; stderr: () => string; stdout: () => string }> {
  const child = agentlib(['serve', ...args, '--port', '0'], options);
  const streams = child as unknown as { stdout: NodeJS.ReadableStream; stderr: NodeJS.ReadableStream };
  let out = '';
  let err = '';
  streams.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    streams.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /at (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    void child.then((result) => reject(new Error(`serve exited early (${String(result.exitCode)}):\n${result.stderr}`)));
  });
  return { url, child, stderr: () => err, stdout: () => out };
}

/** POST /stream with a prompt. */
export function stream(url: string, prompt: string): Promise<Response> {
  return fetch(`${url}/stream`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt }) });
}

/** POST /invoke with a prompt. */
export async function invoke(url: string, prompt: string): Promise<Response> {
  return fetch(`${url}/invoke`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt }) });
}

/** SIGTERM to each server started with startServe; each must stop with exit 0 (a graceful drain). */
export async function stopServers(...servers: { child: CliProcess; stderr: () => string }[]): Promise<void> {
  for (const server of servers) server.child.kill('SIGTERM');
  for (const server of servers) assert.equal((await server.child).exitCode, 0, server.stderr());
}

/** POSTs `body` as JSON to `url + path`: the status and the parsed JSON answer. */
export async function postJson<T>(url: string, path: string, body: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as T };
}

/** Makes agentlib "installed" in project `dir` (node_modules/agentlib → this repository), so a user's nodes module can import it. */
export async function installAgentlibInto(dir: string): Promise<void> {
  await mkdir(join(dir, 'node_modules'));
  await symlink(repoRoot, join(dir, 'node_modules', 'agentlib'), 'dir');
}
