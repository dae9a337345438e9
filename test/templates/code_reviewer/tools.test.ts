import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertSafeRegex, listFiles, MAX_READ_BYTES, readFile, searchFiles } from '../../../templates/code_reviewer/tools.js';
import { toolContext } from '../tool-context.js';

let base: string;
let root: string;
let outside: string;

before(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'agentlib-code-')));
  root = join(base, 'project');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'src', 'util'), { recursive: true });
  mkdirSync(join(root, 'node_modules', 'dep'), { recursive: true });
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(root, 'src', 'index.ts'), "import { add } from './util/math.js';\n\n// TODO: validate input\nexport const total = add(1, 2);\n");
  writeFileSync(join(root, 'src', 'util', 'math.ts'), 'export function add(a: number, b: number): number {\n  return a + b; // TODO overflow\n}\n');
  writeFileSync(join(root, 'README.md'), '# Demo\n\nTODO: write docs\n');
  writeFileSync(join(root, 'node_modules', 'dep', 'index.js'), '// TODO inside node_modules\n');
  writeFileSync(join(root, '.git', 'config'), '[core] TODO\n');
  writeFileSync(join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x54, 0x4f, 0x44, 0x4f]));
  writeFileSync(join(root, 'big.txt'), `${'x'.repeat(99)}\n`.repeat(3000));
  writeFileSync(join(outside, 'secret.txt'), 'TODO secret outside the root\n');
  symlinkSync(join(outside, 'secret.txt'), join(root, 'link-out.txt'));
  symlinkSync(outside, join(root, 'dir-link'));
  symlinkSync(join(root, 'src', 'index.ts'), join(root, 'link-in.ts'));
});

after(() => rmSync(base, { recursive: true, force: true }));

const ctx = (): ReturnType<typeof toolContext<{ root: string }>> => toolContext({ root });
const read = async (args: Parameters<typeof readFile.invoke>[0]): Promise<string> => (await readFile.invoke(args, ctx())).content;

describe('read_file', () => {
  test('reads a file under the root with line numbers', async () => {
    const text = await read({ path: 'src/util/math.ts' });
    assert.match(text, /^src\/util\/math\.ts \(\d+ bytes, 3 lines\)/);
    assert.match(text, /\n2\|   return a \+ b; \/\/ TODO overflow\n/);
  });

  test('returns a line range', async () => {
    const text = await read({ path: 'src/index.ts', start_line: 3, end_line: 3 });
    assert.match(text, /showing 3-3/);
    assert.match(text, /3\| \/\/ TODO: validate input/);
    assert.doesNotMatch(text, /import/);
  });

  test('refuses paths outside the root: ../, absolute, symlinked file and symlinked directory', async () => {
    await assert.rejects(read({ path: '../outside/secret.txt' }), /outside the root/);
    await assert.rejects(read({ path: 'src/../../outside/secret.txt' }), /outside the root/);
    await assert.rejects(read({ path: join(outside, 'secret.txt') }), /absolute paths are not allowed/);
    await assert.rejects(read({ path: '/etc/passwd' }), /absolute paths are not allowed/);
    await assert.rejects(read({ path: 'link-out.txt' }), /outside the root \(symlink\)/);
    await assert.rejects(read({ path: 'dir-link/secret.txt' }), /outside the root \(symlink\)/);
    await assert.rejects(read({ path: 'src/\0index.ts' }), /NUL/);
  });

  test('follows a symlink that stays inside the root', async () => {
    assert.match(await read({ path: 'link-in.ts' }), /^src\/index\.ts/);
  });

  test('refuses binary files, directories and missing files', async () => {
    await assert.rejects(read({ path: 'logo.png' }), /binary file refused/);
    await assert.rejects(read({ path: 'src' }), /not a file/);
    await assert.rejects(read({ path: 'nope.ts' }), /no such file/);
  });

  test('cuts large files with a marker', async () => {
    const text = await read({ path: 'big.txt' });
    assert.match(text, /\[\.\.\. truncated: file is 300000 bytes, only the first 200000 bytes were read \.\.\.\]$/);
    assert.ok(text.length < MAX_READ_BYTES + 20_000);
  });

  test('uses AGENTLIB_CODE_ROOT when the context has no root', async () => {
    const saved = process.env['AGENTLIB_CODE_ROOT'];
    process.env['AGENTLIB_CODE_ROOT'] = root;
    try {
      const output = await readFile.invoke({ path: 'README.md' }, toolContext(undefined));
      assert.match(output.content, /TODO: write docs/);
    } finally {
      if (saved === undefined) delete process.env['AGENTLIB_CODE_ROOT'];
      else process.env['AGENTLIB_CODE_ROOT'] = saved;
    }
  });
});

describe('search_files', () => {
  const search = async (args: Record<string, unknown>): Promise<string> => {
    const valid = await searchFiles.validateArgs(args);
    assert.ok(valid.ok, valid.ok ? '' : valid.error.message);
    return (await searchFiles.invoke(valid.value, ctx())).content;
  };

  test('finds literal text as path:line: text, skipping node_modules, .git, binaries and symlinks out', async () => {
    const text = await search({ pattern: 'todo' });
    assert.match(text, /^README\.md:3: TODO: write docs$/m);
    assert.match(text, /^src\/index\.ts:3: \/\/ TODO: validate input$/m);
    assert.match(text, /^src\/util\/math\.ts:2: return a \+ b; \/\/ TODO overflow$/m);
    assert.doesNotMatch(text, /node_modules|\.git|secret|logo\.png|dir-link|link-out/);
  });

  test('regex, case sensitivity, glob and path filters', async () => {
    assert.match(await search({ pattern: 'export (const|function) \\w+', regex: true }), /src\/index\.ts:4:[\s\S]*src\/util\/math\.ts:1:/);
    assert.match(await search({ pattern: 'todo', case_sensitive: true }), /^No matches/);
    const onlyTs = await search({ pattern: 'TODO', glob: '*.ts' });
    assert.doesNotMatch(onlyTs, /README/);
    const inUtil = await search({ pattern: 'TODO', path: 'src/util' });
    assert.match(inUtil, /src\/util\/math\.ts:2:/);
    assert.doesNotMatch(inUtil, /index\.ts/);
  });

  test('caps the number of matches', async () => {
    const text = await search({ pattern: 'x', max_results: 5, glob: 'big.txt' });
    assert.equal(text.split('\n').filter((line) => line.startsWith('big.txt:')).length, 5);
    assert.match(text, /results capped at 5 matches/);
  });

  test('refuses searching outside the root and catastrophic regexes', async () => {
    await assert.rejects(search({ pattern: 'TODO', path: '../outside' }), /outside the root/);
    await assert.rejects(search({ pattern: 'TODO', path: 'dir-link' }), /outside the root/);
    await assert.rejects(search({ pattern: '(a+)+$', regex: true }), /regular expression refused/);
    await assert.rejects(search({ pattern: '([a-z]*)*x', regex: true }), /regular expression refused/);
    await assert.rejects(search({ pattern: '(unclosed', regex: true }), /invalid regular expression/);
    assert.doesNotThrow(() => assertSafeRegex('(foo|bar)+baz'));
  });
});

describe('list_files', () => {
  const list = async (args: Record<string, unknown>): Promise<string> => {
    const valid = await listFiles.validateArgs(args);
    assert.ok(valid.ok);
    return (await listFiles.invoke(valid.value, ctx())).content;
  };

  test('lists a directory without node_modules/.git and flags symlinks leaving the root', async () => {
    const text = await list({});
    const lines = text.split('\n');
    assert.ok(lines.includes('src/'));
    assert.ok(lines.some((line) => line.startsWith('README.md (')));
    assert.ok(lines.includes('link-out.txt (symlink outside the root, not readable)'));
    assert.ok(lines.includes('link-in.ts (symlink)'));
    assert.ok(!lines.some((line) => line.startsWith('node_modules') || line.startsWith('.git')));
  });

  test('matches a glob recursively', async () => {
    assert.deepEqual((await list({ pattern: '**/*.ts' })).split('\n'), ['link-in.ts', 'src/index.ts', 'src/util/math.ts']);
    assert.deepEqual((await list({ path: 'src', pattern: '*.ts' })).split('\n'), ['src/index.ts', 'src/util/math.ts']);
    assert.deepEqual((await list({ pattern: 'src/*.{ts,md}' })).split('\n'), ['src/index.ts']);
    assert.match(await list({ pattern: '*.py' }), /^No files/);
  });

  test('caps the listing and refuses directories outside the root', async () => {
    assert.match(await list({ max_results: 2 }), /\[listing capped at 2 entries\]$/);
    await assert.rejects(list({ path: '..' }), /outside the root/);
    await assert.rejects(list({ path: 'dir-link' }), /outside the root/);
  });
});
