import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { globToRegExp } from '../../../../lib/rag/loaders/path-glob.js';

describe('globToRegExp', () => {
  const cases: [string, string, boolean][] = [
    ['*.ts', 'a.ts', true],
    ['*.ts', 'src/deep/a.ts', true],
    ['*.ts', 'a.tsx', false],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/x/a.ts', false],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/x/y/a.ts', true],
    ['**/*.{ts,js}', 'lib/a.js', true],
    ['**/*.{ts,js}', 'lib/a.md', false],
    ['file?.txt', 'file1.txt', true],
    ['[ab].md', 'b.md', true],
    ['[!ab].md', 'b.md', false],
    ['a+b(c).txt', 'a+b(c).txt', true],
  ];
  for (const [pattern, path, expected] of cases) {
    test(`${pattern} ${expected ? 'matches' : 'does not match'} ${path}`, () => assert.equal(globToRegExp(pattern).test(path), expected));
  }
});
