import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientAddress, upgradeClientIp } from './client-address.js';

test('IPv4 addresses are kept, also IPv4-mapped ones', () => {
  assert.equal(clientAddress('203.0.113.7'), '203.0.113.7');
  assert.equal(clientAddress('::ffff:203.0.113.7'), '203.0.113.7');
  assert.equal(clientAddress('::FFFF:127.0.0.1'), '127.0.0.1');
});

test('IPv6 addresses count by their /64, however they are written', () => {
  assert.equal(clientAddress('2001:db8:85a3:8d3:1319:8a2e:370:7348'), '2001:db8:85a3:8d3::/64');
  assert.equal(clientAddress('2001:0db8:85a3:08d3::1'), '2001:db8:85a3:8d3::/64');
  assert.equal(clientAddress('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(clientAddress('2001:db8::'), '2001:db8:0:0::/64');
  assert.equal(clientAddress('2001:db8:0:0:ffff::2'), clientAddress('2001:db8::1'));
  assert.equal(clientAddress('::1'), '0:0:0:0::/64');
  assert.equal(clientAddress('fe80::1%eth0'), 'fe80:0:0:0::/64');
  assert.equal(clientAddress('64:ff9b::192.0.2.33'), '64:ff9b:0:0::/64');
  assert.notEqual(clientAddress('2001:db8:0:1::1'), clientAddress('2001:db8:0:2::1'));
});

test('no address: one shared bucket rather than none', () => {
  assert.equal(clientAddress(undefined), 'unknown');
  assert.equal(clientAddress(''), 'unknown');
});

test('a WebSocket upgrade is counted against the address express would see', () => {
  const req = (remoteAddress: string, xff?: string) => ({ socket: { remoteAddress }, headers: xff === undefined ? {} : { 'x-forwarded-for': xff } });
  const none = () => false;
  const oneHop = (_: string, hop: number) => hop < 1;
  assert.equal(upgradeClientIp(req('10.0.0.5', '203.0.113.7'), none), '10.0.0.5', 'TRUST_PROXY=0: the header is ignored');
  assert.equal(upgradeClientIp(req('10.0.0.5', '198.51.100.1, 203.0.113.7'), oneHop), '203.0.113.7', 'one trusted hop: the address it saw');
  assert.equal(upgradeClientIp(req('10.0.0.5'), oneHop), '10.0.0.5', 'no header: the socket');
});
