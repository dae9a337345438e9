import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { checkConfigFile } from '../../../commands/doctor/config-file.js';
import { checkMcpServers } from '../../../commands/doctor/mcp-servers.js';
import { doctorExitCode } from '../../../commands/doctor.js';
import { McpTrustStore, serverEntries } from '../../../lib/mcp/configured-servers.js';
import { EVERYTHING, startEverythingHttp, type RunningEverything } from '../../support/mcp-servers.js';

describe('doctor: the configured MCP servers', () => {
  let dir = '';
  let http: RunningEverything;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agentlib-doctor-mcp-'));
    http = await startEverythingHttp();
  });
  after(async () => {
    await http.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function checks(trust: boolean, offline = false): Promise<Awaited<ReturnType<typeof checkMcpServers>>> {
    writeFileSync(
      join(dir, 'agent.yaml'),
      [
        'name: a',
        'provider: openai',
        'mcp:',
        '  servers:',
        `    - { name: local, command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(EVERYTHING)}, stdio], tools: [echo, get-sum] }`,
        `    - { name: remote, url: ${JSON.stringify(http.url)} }`,
        '    - { name: missing, command: agentlib-no-such-command-xyz }',
        '',
      ].join('\n'),
    );
    const config = await checkConfigFile({ cwd: dir, env: {} });
    assert.equal(config.result.status, 'ok', config.result.detail);
    return checkMcpServers(config.config, { env: { PATH: process.env['PATH'] ?? '' }, cwd: dir, timeoutMs: 20_000, offline, signal: new AbortController().signal, trust });
  }

  test('an unapproved stdio server is not started; HTTP is contacted; a missing command fails (a warning: optional)', async () => {
    const [local, remote, missing] = await checks(false);
    assert.equal(local?.status, 'warn');
    assert.match(local?.detail ?? '', /not started \(not approved in this project\): .*stdio/);
    assert.equal(remote?.status, 'ok', remote?.detail);
    assert.match(remote?.detail ?? '', /mcp-servers\/everything .* over streamable-http, \d+ tools/);
    assert.equal(missing?.status, 'warn');
    assert.match(missing?.detail ?? '', /command not found: agentlib-no-such-command-xyz/);
    assert.equal(doctorExitCode([local, remote, missing].filter((c) => c !== undefined)), 0);
  });

  test('with --trust-mcp (or an approval) the stdio server is started: handshake and tool count (after the tools filter)', async () => {
    const [local] = await checks(true);
    assert.equal(local?.status, 'ok', local?.detail);
    assert.match(local?.detail ?? '', /over stdio, 2 tools/);
    const config = await checkConfigFile({ cwd: dir, env: {} });
    const [entry] = serverEntries(config.config?.mcp?.servers ?? [], dir);
    assert.ok(entry);
    new McpTrustStore(dir).trust(entry);
    const [approved, remote] = await checks(false, true);
    assert.equal(approved?.status, 'ok', approved?.detail);
    assert.equal(remote?.status, 'skip');
  });
});
