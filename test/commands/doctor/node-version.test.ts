import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkNodeVersion, enginesRange, parseVersion, satisfiesRange } from '../../../commands/doctor/node-version.js';

describe('doctor: node version', () => {
  test('parseVersion reads full, partial and prefixed versions', () => {
    assert.deepEqual(parseVersion('v20.19.1'), [20, 19, 1]);
    assert.deepEqual(parseVersion('22'), [22, 0, 0]);
    assert.deepEqual(parseVersion('20.19'), [20, 19, 0]);
    assert.deepEqual(parseVersion('23.0.0-nightly2024'), [23, 0, 0]);
    assert.equal(parseVersion('latest'), undefined);
  });

  test('>=20.19 (agentlib engines)', () => {
    for (const ok of ['20.19.0', 'v20.19.5', '20.20.0', '22.0.0', '24.1.2']) assert.equal(satisfiesRange(ok, '>=20.19'), true, ok);
    for (const bad of ['20.18.3', '18.20.0', 'v20.0.0', '16.0.0']) assert.equal(satisfiesRange(bad, '>=20.19'), false, bad);
  });

  test('other comparators, sets and alternatives', () => {
    assert.equal(satisfiesRange('20.5.0', '^20.1.0'), true);
    assert.equal(satisfiesRange('21.0.0', '^20.1.0'), false);
    assert.equal(satisfiesRange('0.2.9', '^0.2.3'), true);
    assert.equal(satisfiesRange('0.3.0', '^0.2.3'), false);
    assert.equal(satisfiesRange('20.19.9', '~20.19.1'), true);
    assert.equal(satisfiesRange('20.20.0', '~20.19.1'), false);
    assert.equal(satisfiesRange('19.9.9', '>=18 <20'), true);
    assert.equal(satisfiesRange('20.0.0', '>=18 <20'), false);
    assert.equal(satisfiesRange('20.3.0', '>= 18 < 21'), true);
    assert.equal(satisfiesRange('21.0.0', '>20'), true);
    assert.equal(satisfiesRange('20.9.0', '>20'), false);
    assert.equal(satisfiesRange('20.19.7', '<=20.19'), true);
    assert.equal(satisfiesRange('20.20.0', '<=20.19'), false);
    assert.equal(satisfiesRange('18.1.0', '18.x || >=22'), true);
    assert.equal(satisfiesRange('20.1.0', '18.x || >=22'), false);
    assert.equal(satisfiesRange('22.4.0', '18.x || >=22'), true);
    assert.equal(satisfiesRange('20.1.0', '*'), undefined);
    assert.equal(satisfiesRange('20.1.0', ''), true);
    assert.equal(satisfiesRange('nope', '>=20'), undefined);
  });

  test('the check: ok, fail with a hint, warn when the range is unreadable', () => {
    const ok = checkNodeVersion('20.19.0', '>=20.19');
    assert.equal(ok.status, 'ok');
    assert.equal(ok.required, true);
    assert.equal(ok.detail, 'v20.19.0 (engines: >=20.19)');
    const old = checkNodeVersion('v18.20.4', '>=20.19');
    assert.equal(old.status, 'fail');
    assert.equal(old.detail, 'v18.20.4 does not satisfy the engines range >=20.19');
    assert.match(old.hint ?? '', /install a Node\.js version matching >=20\.19/);
    assert.equal(checkNodeVersion('20.0.0', 'lts/*').status, 'warn');
  });

  test("the range comes from agentlib's package.json, and this Node satisfies it", () => {
    assert.equal(enginesRange(), '>=20.19');
    assert.equal(checkNodeVersion().status, 'ok');
  });
});
