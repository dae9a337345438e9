import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isPrivateAddress, nonPublicReason, parseIpv6 } from '../../../../lib/rag/web/ip-address.js';

describe('isPrivateAddress', () => {
  const blocked = [
    '10.0.0.1', '10.255.255.255',
    '172.16.0.1', '172.20.10.5', '172.31.255.255',
    '192.168.0.1', '192.168.255.254',
    '127.0.0.1', '127.1.2.3', '127.255.255.255',
    '169.254.169.254', '169.254.0.1',
    '0.0.0.0', '0.1.2.3',
    '100.64.0.1', '100.127.255.255',
    '192.0.0.8', '192.0.2.10', '198.18.0.1', '198.51.100.7', '203.0.113.9',
    '224.0.0.251', '239.255.255.250', '240.0.0.1', '255.255.255.255',
    '::1', '::', '0:0:0:0:0:0:0:1', '[::1]',
    'fc00::1', 'fd00::1', 'fdff:ffff::1', 'fd12:3456:789a::1',
    'fe80::1', 'fe80::1%eth0', 'febf:ffff::1', 'fec0::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:192.168.1.1', '::ffff:169.254.169.254', '::FFFF:172.16.0.1',
    '::127.0.0.1', '::ffff:0:10.0.0.1',
    '64:ff9b::127.0.0.1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::1',
    '2002:7f00:1::1', '2002:c0a8:101::1',
    '2001:db8::1', '2001::1', '100::1',
    'ff02::1', 'ff05::1:3',
    'not-an-ip', '1.2.3', '1.2.3.256', '01.2.3.4x', '',
  ];
  for (const address of blocked) {
    test(`refuses ${JSON.stringify(address)}`, () => assert.equal(isPrivateAddress(address), true, nonPublicReason(address)));
  }

  const allowed = ['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.15.255.255', '172.32.0.1', '192.169.0.1', '100.63.255.255', '100.128.0.1', '169.253.0.1', '11.0.0.1', '2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'];
  for (const address of allowed) {
    test(`allows ${address}`, () => assert.equal(isPrivateAddress(address), false, nonPublicReason(address)));
  }

  test('names the reason', () => {
    assert.equal(nonPublicReason('127.0.0.1'), 'loopback');
    assert.equal(nonPublicReason('::ffff:127.0.0.1'), 'IPv4 loopback');
    assert.equal(nonPublicReason('fd00::1'), 'unique-local');
    assert.equal(nonPublicReason('fe80::1'), 'link-local');
    assert.equal(nonPublicReason('169.254.169.254'), 'link-local');
  });

  test('parses IPv6 forms', () => {
    assert.deepEqual(parseIpv6('::ffff:1.2.3.4'), [0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
    assert.deepEqual(parseIpv6('1::'), [1, 0, 0, 0, 0, 0, 0, 0]);
    assert.deepEqual(parseIpv6('1:2:3:4:5:6:7:8'), [1, 2, 3, 4, 5, 6, 7, 8]);
    assert.equal(parseIpv6('1:2:3:4:5:6:7:8:9'), undefined);
    assert.equal(parseIpv6('1::2::3'), undefined);
    assert.equal(parseIpv6('127.0.0.1'), undefined);
  });
});
