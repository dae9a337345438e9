import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { detectPii, redactMatches } from '../../../lib/safety/pii/detect-pii.js';
import { cardNetworkValid, ibanValid, luhnValid, ssnValid } from '../../../lib/safety/pii/checksums.js';

const kinds = (text: string): string[] => detectPii(text).map((m) => `${m.type}:${m.text}`);

describe('PII detection', () => {
  test('REFERENCE §3: nine digits alone are not an SSN (order numbers, ids)', () => {
    assert.deepEqual(kinds('order 219099999 shipped; ticket #100234567; id=512345678'), []);
    assert.deepEqual(kinds('SSN: 219099999'), ['ssn:219099999']);
    assert.deepEqual(kinds('my social security number is 219-09-9999'), ['ssn:219-09-9999']);
  });

  test('SSN: only issued area/group/serial ranges', () => {
    for (const bad of ['000-12-3456', '666-12-3456', '912-12-3456', '219-00-9999', '219-09-0000', '078-05-1120']) {
      assert.deepEqual(detectPii(bad, { types: ['ssn'] }), [], bad);
    }
    assert.equal(ssnValid('219', '09', '9999'), true);
    assert.deepEqual(kinds('SSN 219 09 9999'), ['ssn:219 09 9999']);
  });

  test('REFERENCE §3: a card number must pass Luhn', () => {
    assert.deepEqual(kinds('card 4111 1111 1111 1112'), []);
    assert.deepEqual(kinds('card 4111 1111 1111 1111'), ['credit_card:4111 1111 1111 1111']);
    assert.equal(luhnValid('79927398713'), true);
    assert.equal(luhnValid('79927398710'), false);
  });

  test('cards of every major length, plain, spaced or dashed', () => {
    const cards = ['4222222222222', '4111-1111-1111-1111', '5555 5555 5555 4444', '2223003122003222', '378282246310005', '3782 822463 10005', '6011111111111117', '30569309025904', '3530111333300000', '6200000000000005', '4111111111111111110'.slice(0, 16)];
    for (const card of cards) assert.deepEqual(detectPii(`pay with ${card} today`).map((m) => m.type), ['credit_card'], card);
    // Luhn-valid but no network prefix or a wrong length: not a card.
    assert.equal(cardNetworkValid('1234567812345670'), false);
    assert.deepEqual(detectPii('ref 1234567812345670', { types: ['credit_card'] }), []);
  });

  test('emails, not file names or package versions', () => {
    assert.deepEqual(kinds('mail jane.doe+tag@mail.example.co.uk.'), ['email:jane.doe+tag@mail.example.co.uk']);
    assert.deepEqual(kinds('logo@2x.png lodash@4.17.21 @scope/pkg@latest'), []);
  });

  test('phones: international and national formats; not dates, ISBNs or product codes', () => {
    assert.deepEqual(kinds('+44 20 7946 0958'), ['phone:+44 20 7946 0958']);
    assert.deepEqual(kinds('+1 (415) 555-0132'), ['phone:+1 (415) 555-0132']);
    assert.deepEqual(kinds('(212) 555-0198'), ['phone:(212) 555-0198']);
    assert.deepEqual(kinds('415.555.0132'), ['phone:415.555.0132']);
    assert.deepEqual(kinds('020 7946 0958'), ['phone:020 7946 0958']);
    assert.deepEqual(kinds('06 12 34 56 78'), ['phone:06 12 34 56 78']);
    assert.deepEqual(kinds('ISBN 978-3-16-148410-0, on 2024-01-15 12:30:45, part PN-212-555-0198-B, build 1.2.3'), []);
  });

  test('IPv4 and IPv6, not version strings, OIDs, times or MAC addresses', () => {
    assert.deepEqual(kinds('from 192.168.1.20 and 2001:db8::8a2e:370:7334 and ::1'), ['ipv4:192.168.1.20', 'ipv6:2001:db8::8a2e:370:7334', 'ipv6:::1']);
    assert.deepEqual(kinds('version 1.2.3.4, v10.0.0.1, OID 1.3.6.1.4.1.311, 12:30:45, 00:1a:2b:3c:4d:5e, std::vector, 999.1.1.1'), []);
  });

  test('IBAN with country length and mod-97 checksum', () => {
    assert.deepEqual(kinds('IBAN DE89 3704 0044 0532 0130 00 ON FILE'), ['iban:DE89 3704 0044 0532 0130 00']);
    assert.deepEqual(kinds('GB82WEST12345698765432'), ['iban:GB82WEST12345698765432']);
    assert.equal(ibanValid('GB82WEST12345698765433'), false);
    assert.deepEqual(detectPii('GB82WEST12345698765433', { types: ['iban'] }), []);
  });

  test('redaction: typed masks, the rest unchanged; custom patterns', () => {
    const text = 'Ana (ana@example.org, 4111 1111 1111 1111) badge EMP-004211';
    const matches = detectPii(text, { custom: [{ name: 'employee_id', pattern: /\bEMP-\d{6}\b/ }] });
    assert.equal(redactMatches(text, matches), 'Ana ([EMAIL], [CARD]) badge [EMPLOYEE_ID]');
    assert.deepEqual(detectPii(text, { types: ['email'] }).map((m) => m.mask), ['[EMAIL]']);
  });
});
