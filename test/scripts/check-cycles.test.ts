import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../scripts/check-cycles.mjs', import.meta.url));

function check(files: Record<string, string>): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'agentlib-cycles-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, 'lib', name, '..'), { recursive: true });
      writeFileSync(join(dir, 'lib', name), text);
    }
    const result = spawnSync(process.execPath, [script, 'lib'], { cwd: dir, encoding: 'utf8' });
    return { status: result.status, output: result.stdout + result.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('check-cycles fails on a cycle, type-only imports included, and names it', () => {
  const result = check({
    'a.ts': "import { b } from './sub/b.js';\nexport const a = b + 1;\n",
    'sub/b.ts': "import type { C } from '../c.js';\nexport const b = 1;\nexport type B = C;\n",
    'c.ts': "import type { a } from './a.js';\nexport type C = typeof a;\n",
  });
  assert.equal(result.status, 1);
  assert.match(result.output, /lib\/a\.ts -> lib\/sub\/b\.ts -> lib\/c\.ts -> lib\/a\.ts/);
});

test('check-cycles passes an acyclic tree and the project itself', () => {
  const result = check({ 'a.ts': "import { b } from './b.js';\nexport const a = b;\n", 'b.ts': 'export const b = 1;\n' });
  assert.equal(result.status, 0, result.output);
  const project = spawnSync(process.execPath, [script], { cwd: fileURLToPath(new URL('../../', import.meta.url)), encoding: 'utf8' });
  assert.equal(project.status, 0, project.stderr);
});
