import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const HEAVY = /node_modules\/(ink|react|react-dom|openai|@anthropic-ai|@google\/genai|ollama|gpt-tokenizer|better-sqlite3|@modelcontextprotocol|redis|pg|yaml)\//;

/** Imports `entry` in a fresh process and returns every module URL it resolved. */
function modulesLoadedBy(entry: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'agentlib-imports-'));
  const trace = join(dir, 'trace.txt');
  try {
    const result = spawnSync(
      process.execPath,
      ['--import', './test/support/module-trace-register.mjs', '--import', 'tsx', '--input-type=module', '-e', `await import(${JSON.stringify(entry)});`],
      { cwd: root, encoding: 'utf8', env: { ...process.env, AGENTLIB_MODULE_TRACE: trace } },
    );
    assert.equal(result.status, 0, result.stderr);
    return readFileSync(trace, 'utf8').split('\n').filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('public API', () => {
  test('importing agentlib loads no ink, react, provider SDK, tokenizer, database driver or YAML parser', () => {
    const loaded = modulesLoadedBy('./lib/index.ts');
    assert.ok(loaded.some((line) => line.includes('lib/agent/agent.ts')), 'the trace saw the library load');
    const heavy = loaded.filter((line) => HEAVY.test(line));
    assert.deepEqual(heavy, []);
  });

  test('the curated API exposes the main entry points', async () => {
    const api = await import('../../lib/index.js');
    for (const name of ['Agent', 'AgentResult', 'AgentStream', 'tool', 'ToolRegistry', 'ToolLoader', 'ToolPolicy', 'AgentTrace', 'StepType',
      'CancellationToken', 'ProviderError', 'ToolValidationError', 'LoggingObserver', 'SimpleStepObserver', 'ModelType', 'estimateTokens', 'REASONING_STRATEGIES']) {
      assert.ok(name in api, name);
    }
    const testApi = await import('../../lib/test/index.js');
    assert.equal(typeof testApi.ScriptedProvider, 'function');
  });
});
