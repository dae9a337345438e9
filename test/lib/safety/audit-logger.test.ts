import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { Agent } from '../../../lib/agent/agent.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { AuditLogger } from '../../../lib/safety/audit/audit-logger.js';
import { shortHash } from '../../../lib/safety/audit/audit-privacy.js';
import type { AuditPrivacy } from '../../../lib/safety/audit/audit-types.js';
import { ToolPolicy } from '../../../lib/safety/tool-policy.js';
import { tool } from '../../../lib/tools/tool.js';
import { testRuntime } from '../../support/agent-harness.js';

const dirs: string[] = [];
after(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agentlib-audit-'));
  dirs.push(dir);
  return dir;
}

const SECRET = 'sk-live-0123456789abcdefghijklmnop';

async function auditedRun(privacy: AuditPrivacy, rotateDaily = true): Promise<{ records: Record<string, unknown>[]; files: string[]; text: string }> {
  const dir = await tempDir();
  const audit = new AuditLogger({ dir, privacy, rotateDaily });
  const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'lookup', parameters: { city: 'Oslo', apiKey: SECRET } }] }, 'Sunny in Oslo'] });
  const lookup = tool({ name: 'lookup', description: 'Look up the weather', parameters: z.object({ city: z.string(), apiKey: z.string() }), execute: ({ city }) => `sunny in ${city}` });
  await new Agent({ provider, tools: [lookup], toolPolicy: new ToolPolicy({ allow: ['*'] }), observers: [audit], runtime: testRuntime() }).run(`weather in Oslo? my key is ${SECRET}`);
  await audit.flush();
  const files = await readdir(dir);
  const text = (await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')))).join('');
  return { records: text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>), files, text };
}

describe('AuditLogger', () => {
  test('records of a run, in order, in audit-YYYY-MM-DD.jsonl; keys_only by default keeps names and lengths', async () => {
    const { records, files, text } = await auditedRun('keys_only');
    assert.deepEqual(files, ['audit-2023-11-14.jsonl']);
    assert.deepEqual(records.map((r) => r.type), ['run_start', 'llm_end', 'policy_decision', 'tool_start', 'tool_end', 'llm_end', 'run_end']);
    const start = records.find((r) => r.type === 'tool_start')!;
    assert.deepEqual(start.args, ['city', 'apiKey']);
    assert.equal(records[0]!.input, undefined);
    assert.equal(typeof records[0]!.input_chars, 'number');
    assert.doesNotMatch(text, /Oslo|sk-live/);
  });

  test('full: values kept, secrets redacted (REFERENCE §7)', async () => {
    const { records, text } = await auditedRun('full');
    assert.deepEqual(records.find((r) => r.type === 'tool_start')!.args, { city: 'Oslo', apiKey: '[REDACTED]' });
    assert.match(String(records[0]!.input), /weather in Oslo/);
    assert.doesNotMatch(text, /sk-live-0123/);
  });

  test('hashed: 16 hex characters of SHA-256 per value, secret keys redacted; none: no values', async () => {
    const hashed = await auditedRun('hashed');
    assert.deepEqual(hashed.records.find((r) => r.type === 'tool_start')!.args, { city: shortHash('Oslo'), apiKey: '[REDACTED]' });
    assert.match(shortHash('Oslo'), /^[0-9a-f]{16}$/);
    const none = await auditedRun('none');
    assert.equal(none.records.find((r) => r.type === 'tool_start')!.args, undefined);
    assert.doesNotMatch(none.text, /Oslo|sk-live/);
  });

  test('rotation off: one audit.jsonl', async () => {
    assert.deepEqual((await auditedRun('keys_only', false)).files, ['audit.jsonl']);
  });

  test('four processes writing the same day file: every record present, every line valid JSON', async () => {
    const dir = await tempDir();
    const script = fileURLToPath(new URL('./fixtures/audit-writer.ts', import.meta.url));
    const count = 150;
    const writers = ['a', 'b', 'c', 'd'];
    await Promise.all(
      writers.map(
        (writer) =>
          new Promise<void>((resolve, reject) => {
            const child = spawn(process.execPath, ['--import', 'tsx', script, dir, writer, String(count)], { stdio: ['ignore', 'ignore', 'pipe'] });
            let stderr = '';
            child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
            child.on('error', reject);
            child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${writer} exited ${code}: ${stderr}`))));
          }),
      ),
    );
    assert.deepEqual(await readdir(dir), ['audit-2026-11-26.jsonl']);
    const lines = (await readFile(join(dir, 'audit-2026-11-26.jsonl'), 'utf8')).split('\n').filter((l) => l !== '');
    assert.equal(lines.length, writers.length * count);
    const seen = new Set(lines.map((l) => (JSON.parse(l) as { run_id: string }).run_id));
    for (const writer of writers) for (let i = 0; i < count; i++) assert.ok(seen.has(`${writer}-${i}`), `${writer}-${i}`);
  });

  test('refuses a bad privacy level', () => {
    assert.throws(() => new AuditLogger({ dir: 'x', privacy: 'partial' as AuditPrivacy }), /privacy must be one of/);
  });
});
