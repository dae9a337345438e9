import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EVERYTHING } from '../support/mcp-servers.js';
import { agentlib, cliEnv, cliSuite } from './run-helpers.js';

describe('agentlib mcp tools and call (built binary)', () => {
  const suite = cliSuite();

  test('mcp tools lists a stdio server’s tools as a table, or --json', async () => {
    const { project } = suite;
    const table = await agentlib(['mcp', 'tools', '--', process.execPath, EVERYTHING, 'stdio'], { cwd: project.dir, env: cliEnv(undefined) });
    assert.equal(table.exitCode, 0, table.stderr);
    assert.match(table.stdout, /^TOOL +PARAMETERS +DESCRIPTION$/m);
    assert.match(table.stdout, /^get-sum +a, b +Returns the sum of two numbers$/m);
    assert.match(table.stdout, /^trigger-long-running-operation +duration\?, steps\?/m);
    const json = await agentlib(['mcp', 'tools', '--json', '--', process.execPath, EVERYTHING, 'stdio'], { cwd: project.dir, env: cliEnv(undefined) });
    assert.equal(json.exitCode, 0, json.stderr);
    const doc = JSON.parse(json.stdout) as { version: number; tools: { name: string; inputSchema: { required?: string[] } }[] };
    assert.equal(doc.version, 1);
    assert.deepEqual(doc.tools.find((t) => t.name === 'get-sum')?.inputSchema.required, ['a', 'b']);
  });

  test('mcp call calls one tool; an error result exits 3 with the server’s message', async () => {
    const { project } = suite;
    const server = `${process.execPath} ${EVERYTHING} stdio`;
    const ok = await agentlib(['mcp', 'call', server, 'get-sum', '{"a": 20, "b": 22}'], { cwd: project.dir, env: cliEnv(undefined) });
    assert.equal(ok.exitCode, 0, ok.stderr);
    assert.equal(ok.stdout, 'The sum of 20 and 22 is 42.');
    const bad = await agentlib(['mcp', 'call', server, 'get-sum', '{"a": "x"}'], { cwd: project.dir, env: cliEnv(undefined) });
    assert.equal(bad.exitCode, 3);
    assert.match(bad.stderr, /MCP tool "get-sum" of server "node" returned an error: .*Invalid arguments/);
    const notJson = await agentlib(['mcp', 'call', server, 'get-sum', '{a: 1}'], { cwd: project.dir, env: cliEnv(undefined) });
    assert.equal(notJson.exitCode, 2);
  });
});
