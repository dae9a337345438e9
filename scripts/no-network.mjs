// Loaded into every test process by scripts/run-tests.mjs (`--import`): tests need no network, and
// this makes that a check instead of a hope. A TCP connection to anything but a loopback address
// (or a Unix socket) fails at once with an error naming the host, before any DNS lookup, so a test
// that would reach the internet fails the same way on every machine, online or not.
// Set AGENTLIB_TEST_NETWORK=1 to lift the guard (e.g. a local experiment against a real API).
import net from 'node:net';

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.', '::1', '0:0:0:0:0:0:0:1', '[::1]']);

/** True for loopback hosts: localhost, 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopbackHost(host) {
  if (host === undefined || host === null || host === '') return true; // Node connects to localhost
  const name = String(host).toLowerCase();
  if (LOOPBACK_NAMES.has(name)) return true;
  const v4 = name.startsWith('::ffff:') ? name.slice(7) : name;
  return net.isIPv4(v4) && v4.startsWith('127.');
}

/** The host a `Socket#connect` call targets, or undefined for a Unix socket / pipe. */
function targetOf(args) {
  const first = args[0];
  // Node's internal calls pass [options, callback] (normalized); user calls may pass (port, host).
  const options = Array.isArray(first) ? first[0] : first;
  if (options !== null && typeof options === 'object') {
    if (typeof options.path === 'string') return undefined;
    return { host: options.host, port: options.port };
  }
  if (typeof options === 'string' && Number.isNaN(Number(options))) return undefined; // a pipe path
  return { host: typeof args[1] === 'string' ? args[1] : undefined, port: options };
}

if (process.env.AGENTLIB_TEST_NETWORK !== '1') {
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(...args) {
    const target = targetOf(args);
    if (target !== undefined && !isLoopbackHost(target.host)) {
      const error = new Error(`tests must not use the network: a connection to ${String(target.host)}:${String(target.port)} was refused by scripts/no-network.mjs`);
      error.code = 'ENETUNREACH';
      // Asynchronously, as a real refused connection: callers handle 'error' events, not throws.
      process.nextTick(() => this.destroy(error));
      return this;
    }
    return connect.apply(this, args);
  };
}
