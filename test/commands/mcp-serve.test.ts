import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { execa } from 'execa';
import { binPath } from '../support/cli-build.js';
import { cliEnv, cliSuite } from './run-helpers.js';

describe('agentlib mcp serve (built binary)', () => {
  const suite = cliSuite();

  test('mcp serve agent.yaml over stdio: the official SDK client lists and calls the agent’s tools under its policy', async () => {
    const { project } = suite;
    const file = join(project.dir, 'calculator', 'mcp-agent.yaml');
    writeFileSync(file, 'name: calculator\nprovider: openai\nmodel: gpt-4o-mini\ntools:\n  - ./tools.ts\npolicy:\n  allow: [add, multiply]\n  deny: [divide]\n');
    const transport = new StdioClientTransport({ command: process.execPath, args: [binPath, 'mcp', 'serve', file], env: cliEnv(undefined), cwd: project.dir, stderr: 'pipe' });
    const client = new Client({ name: 'sdk', version: '1' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ['add', 'divide', 'multiply']);
      assert.deepEqual((await client.callTool({ name: 'multiply', arguments: { a: 1231, b: 2331 } })).content, [{ type: 'text', text: '2869461' }]);
      const denied = await client.callTool({ name: 'divide', arguments: { a: 7, b: 2 } });
      assert.equal(denied.isError, true);
      assert.match(JSON.stringify(denied.content), /denied by policy/);
    } finally {
      await client.close();
    }
  });

  test('mcp serve --http: prints the URL; the SDK client calls a tool; Ctrl+C stops it', async () => {
    const { project } = suite;
    const file = join(project.dir, 'calculator', 'agent.yaml');
    const child = execa(process.execPath, [binPath, 'mcp', 'serve', file, '--http', '--port', '0', '--expose-agent'], { cwd: project.dir, env: cliEnv(undefined), extendEnv: false, reject: false });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /on (http:\/\/127\.0\.0\.1:\d+\/mcp) \((\d+) tools: ([^)]*)\)/.exec(out);
          if (match?.[1] !== undefined) {
            assert.match(match[3] ?? '', /ask_calculator/);
            resolve(match[1]);
          }
        });
        void child.then((r) => reject(new Error(`exited: ${r.stderr}`)));
      });
      const client = new Client({ name: 'sdk', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      assert.deepEqual((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).content, [{ type: 'text', text: '5' }]);
      await client.close();
    } finally {
      child.kill('SIGINT');
    }
    const result = await child;
    assert.equal(result.exitCode, 130, result.stderr);
  });
});
