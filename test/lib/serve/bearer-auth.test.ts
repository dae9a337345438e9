import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { bearerChecker } from '../../../lib/serve/bearer-auth.js';
import { createServeApp } from '../../../lib/serve/index.js';
import { scriptedAgent } from './helpers.js';

// Issue 13, item 24: a checker that accepted any prefix of the token, or ignored its case, left
// every serve test green (they only checked a missing and a wholly wrong token). Each refusal is
// checked here, on the checker itself.

const TOKEN = 'Secret-Token_0123456789abcdef';

describe('bearerChecker', () => {
  const check = bearerChecker(TOKEN);

  test('accepts exactly the token, after the scheme in any case and one or more spaces', () => {
    assert.equal(check(`Bearer ${TOKEN}`), true);
    assert.equal(check(`bearer ${TOKEN}`), true, 'the scheme is case-insensitive (RFC 9110)');
    assert.equal(check(`BEARER ${TOKEN}`), true);
    assert.equal(check(`Bearer   ${TOKEN}`), true, '1*SP (RFC 6750)');
  });

  const refused: readonly (readonly [string, string | undefined | null])[] = [
    ['no header', undefined],
    ['null', null],
    ['an empty header', ''],
    ['the scheme alone', 'Bearer'],
    ['an empty token', 'Bearer '],
    ['a prefix of the token', `Bearer ${TOKEN.slice(0, -1)}`],
    ['the first character only', `Bearer ${TOKEN.slice(0, 1)}`],
    ['the token in upper case', `Bearer ${TOKEN.toUpperCase()}`],
    ['the token in lower case', `Bearer ${TOKEN.toLowerCase()}`],
    ['the token with trailing text', `Bearer ${TOKEN}x`],
    ['the token and another word', `Bearer ${TOKEN} extra`],
    ['the token with a trailing space', `Bearer ${TOKEN} `],
    ['a leading space', ` Bearer ${TOKEN}`],
    ['a tab as the separator', `Bearer\t${TOKEN}`],
    ['no separator', `Bearer${TOKEN}`],
    ['whitespace inside the token', `Bearer ${TOKEN.slice(0, 5)} ${TOKEN.slice(5)}`],
    ['a longer token that starts with it', `Bearer ${TOKEN}${TOKEN}`],
    ['the token without a scheme', TOKEN],
    ['another scheme', `Basic ${TOKEN}`],
    ['another scheme that starts like it', `Bearerx ${TOKEN}`],
    ['the token as Basic credentials', `Basic ${Buffer.from(`user:${TOKEN}`).toString('base64')}`],
  ];
  for (const [what, header] of refused) {
    test(`refuses ${what}`, () => assert.equal(check(header), false));
  }

  test('a token that could never match is refused when the checker is made (and so by createServeApp)', () => {
    for (const bad of ['', ' ', '\t\n', 'two words-long-enough-token', 'trailing-newline-token\n', ' leading-space-token']) {
      assert.throws(() => bearerChecker(bad), (error: unknown) => ConfigurationError.isInstance(error) && /auth token/.test(error.message), JSON.stringify(bad));
      assert.throws(() => createServeApp({ agent: scriptedAgent({ replies: ['ok'] }), authToken: bad }), /auth token/, JSON.stringify(bad));
    }
  });
});
