import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileGlob, GlobSyntaxError, isGlobPattern, matchesGlob } from '../../../lib/safety/glob.js';

describe('glob patterns', () => {
  test('* matches any run of characters, including none, slashes and newlines', () => {
    assert.equal(matchesGlob('delete_*', 'delete_file'), true);
    assert.equal(matchesGlob('delete_*', 'delete_'), true);
    assert.equal(matchesGlob('*', ''), true);
    assert.equal(matchesGlob('/etc/*', '/etc/ssh/sshd_config'), true);
    assert.equal(matchesGlob('rm *', 'rm -rf /\necho done'), true);
    assert.equal(matchesGlob('a**b', 'axxb'), true);
  });

  test('matching is anchored at both ends', () => {
    assert.equal(matchesGlob('delete_*', 'undelete_file'), false);
    assert.equal(matchesGlob('read', 'read_file'), false);
    assert.equal(matchesGlob('*_file', 'read_file_now'), false);
  });

  test('matching is case-sensitive', () => {
    assert.equal(matchesGlob('delete_*', 'Delete_file'), false);
    assert.equal(matchesGlob('[a-z]*', 'Read'), false);
  });

  test('? matches exactly one character', () => {
    assert.equal(matchesGlob('tool_?', 'tool_a'), true);
    assert.equal(matchesGlob('tool_?', 'tool_'), false);
    assert.equal(matchesGlob('tool_?', 'tool_ab'), false);
  });

  test('bracket expressions: sets, ranges, negation and a leading ]', () => {
    assert.equal(matchesGlob('v[123]', 'v2'), true);
    assert.equal(matchesGlob('v[123]', 'v4'), false);
    assert.equal(matchesGlob('v[0-9]', 'v7'), true);
    assert.equal(matchesGlob('v[!0-9]', 'v7'), false);
    assert.equal(matchesGlob('v[!0-9]', 'vx'), true);
    assert.equal(matchesGlob('v[^0-9]', 'vx'), true);
    assert.equal(matchesGlob('[]]', ']'), true);
    assert.equal(matchesGlob('[a-]', '-'), true);
  });

  test('POSIX character classes', () => {
    assert.equal(matchesGlob('step[[:digit:]]', 'step3'), true);
    assert.equal(matchesGlob('step[[:digit:]]', 'stepx'), false);
    assert.equal(matchesGlob('[[:upper:]]*', 'Read'), true);
    assert.equal(matchesGlob('[[:alpha:]_]*', '_x'), true);
    assert.equal(matchesGlob('x[[:space:]]y', 'x\ty'), true);
  });

  test('regex metacharacters are literal', () => {
    assert.equal(matchesGlob('a.b', 'a.b'), true);
    assert.equal(matchesGlob('a.b', 'axb'), false);
    assert.equal(matchesGlob('f(x)+$', 'f(x)+$'), true);
    assert.equal(matchesGlob('[*]', '*'), true);
    assert.equal(matchesGlob('[*]', 'a'), false);
    assert.equal(matchesGlob('a\\b', 'a\\b'), true);
  });

  test('malformed patterns are errors, not silent literals', () => {
    assert.throws(() => compileGlob('tool_[abc'), GlobSyntaxError);
    assert.throws(() => compileGlob('[[:digits:]]'), /unknown character class/);
    assert.throws(() => compileGlob('[z-a]'), /reversed/);
  });

  test('isGlobPattern tells literals from patterns', () => {
    assert.equal(isGlobPattern('read_file'), false);
    assert.equal(isGlobPattern('read_*'), true);
    assert.equal(isGlobPattern('v[12]'), true);
  });
});

describe('glob matching cost', () => {
  test('a long adversarial argument gets the right answer', () => {
    // A backtracking regex (^.*a.*b$) needs seconds here; how long the matcher takes, and how that
    // grows with the length, is measured by bench/glob-match.ts (`--check` fails past its target).
    const text = 'a'.repeat(60_000);
    assert.equal(matchesGlob('*a*b', text), false);
    assert.equal(matchesGlob('*a*a*a*a*a*', text), true);
    assert.equal(matchesGlob('*a*a*a*a*a*b', `${text}b`), true);
  });

  test('backtracking to the last star still finds late matches', () => {
    assert.equal(matchesGlob('*ab*cd', 'xaxabyycxcd'), true);
    assert.equal(matchesGlob('a*b*c', 'abbbbc'), true);
    assert.equal(matchesGlob('a*b?c', 'axxbyc'), true);
    assert.equal(matchesGlob('a*b?c', 'axxbc'), false);
    assert.equal(matchesGlob('😀*', '😀 emoji'), true);
    assert.equal(matchesGlob('?', '😀'), true, 'one code point');
  });
});
