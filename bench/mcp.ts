// Tool-call round trip through agentlib's MCPClient against the official SDK client used raw, on
// the same server (@modelcontextprotocol/server-everything's `echo`), over stdio and Streamable
// HTTP. Each client has its own server process; rounds interleave the clients (alternating their
// order, so other load hits all alike), each round times `calls` sequential calls; the figures are
// the median per-call time and the median over rounds of the per-round ratio.
//   node --import tsx bench/mcp.ts [--calls 200] [--rounds 9] [--check] [--json PATH | --no-json]
// Target: agentlib ≤ 1.1× the raw SDK client on both transports (MCPClient adds the result mapping,
// error mapping and connection bookkeeping; the agentlib tool path adds argument validation).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createServer } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCPClient } from '../lib/mcp/mcp-client.js';
import type { Tool } from '../lib/tools/types.js';
import { median } from './lib/measure.js';

const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '9' },
    check: { type: 'boolean', default: false },
    json: { type: 'string', default: 'bench/results/mcp.json' },
    'no-json': { type: 'boolean', default: false },
  },
});
const calls = Number(args.calls);
const rounds = Number(args.rounds);
const TARGET = 1.1;
const EVERYTHING = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function startHttp(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve) => {
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      if (/listening on port/i.test(out)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

type Caller = () => Promise<string>;
interface Contender {
  name: string;
  call: Caller;
  close: () => Promise<void>;
}

// agentlib starts a stdio server in its own process group (detached, i.e. setsid) so close() can end
// everything it started. On Linux with sched_autogroup (a new session is a new scheduling group)
// that alone slows round trips on a loaded machine; `setsid` runs the raw client's server the same
// way, so the "like for like" ratio isolates agentlib's own code.
const SETSID = process.platform === 'linux' && existsSync('/usr/bin/setsid') ? '/usr/bin/setsid' : undefined;

async function rawSdk(transport: 'stdio' | 'http', url?: string, ownSession = false): Promise<Contender> {
  const client = new Client({ name: 'raw', version: '1' });
  const stdio = ownSession && SETSID !== undefined ? { command: SETSID, args: [process.execPath, EVERYTHING, 'stdio'] } : { command: process.execPath, args: [EVERYTHING, 'stdio'] };
  await client.connect(transport === 'stdio' ? new StdioClientTransport({ ...stdio, stderr: 'ignore' }) : new StreamableHTTPClientTransport(new URL(url ?? '')));
  return {
    name: ownSession ? 'raw SDK client, server under setsid' : 'raw SDK client',
    call: async () => {
      const result = await client.callTool({ name: 'echo', arguments: { message: 'ping' } });
      return (result.content as { text: string }[])[0]?.text ?? '';
    },
    close: () => client.close(),
  };
}

async function agentlibClient(transport: 'stdio' | 'http', url?: string): Promise<Contender[]> {
  const client = new MCPClient(transport === 'stdio' ? { name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'] } : { name: 'everything', url: url ?? '' });
  const tools = await client.tools();
  const echo = tools.find((t) => t.name === 'echo') as Tool;
  const ctx = { signal: new AbortController().signal, runId: 'bench', callId: 'c', toolName: 'echo', context: undefined };
  return [
    { name: 'agentlib MCPClient', call: async () => (await client.callTool('echo', { message: 'ping' })).text, close: () => client.close() },
    {
      name: 'agentlib tool (validate + invoke)',
      call: async () => {
        const validated = await echo.validateArgs({ message: 'ping' });
        if (!validated.ok) throw validated.error;
        return (await echo.invoke(validated.value, ctx)).content;
      },
      close: async () => undefined,
    },
  ];
}

interface Result {
  name: string;
  medianUs: number;
  /** Median over rounds of (this contender's time / the raw SDK client's time in the same round). */
  ratio: number;
  /** The same against the raw SDK client whose server runs in its own session like agentlib's (stdio on Linux). */
  likeForLike?: number;
}

async function measure(transport: 'stdio' | 'http'): Promise<{ transport: string; results: Result[] }> {
  const http = transport === 'http' ? await startHttp() : undefined;
  const detached = transport === 'stdio' && SETSID !== undefined ? [await rawSdk(transport, undefined, true)] : [];
  const contenders = [await rawSdk(transport, http?.url), ...detached, ...(await agentlibClient(transport, http?.url))];
  for (const c of contenders) for (let i = 0; i < 50; i++) if ((await c.call()) !== 'Echo: ping') throw new Error(`${c.name}: wrong answer`);
  const perCall = contenders.map((): number[] => []);
  for (let round = 0; round < rounds; round++) {
    // Every other round runs the contenders in the reverse order (load that drifts hits all alike).
    const order = [...contenders.entries()];
    if (round % 2 === 1) order.reverse();
    for (const [i, c] of order) {
      const started = process.hrtime.bigint();
      for (let n = 0; n < calls; n++) await c.call();
      perCall[i]?.push(Number(process.hrtime.bigint() - started) / 1e3 / calls);
    }
  }
  for (const c of contenders) await c.close();
  http?.child.kill('SIGTERM');
  const ratioTo = (i: number, base: number): number => Number(median((perCall[i] ?? []).map((t, round) => t / (perCall[base]?.[round] ?? t))).toFixed(3));
  return {
    transport,
    results: contenders.map((c, i) => ({
      name: c.name,
      medianUs: Math.round(median(perCall[i] ?? [])),
      ratio: ratioTo(i, 0),
      ...(detached.length > 0 && i > 0 ? { likeForLike: ratioTo(i, 1) } : {}),
    })),
  };
}

console.log(`mcp round trip: ${rounds} rounds × ${calls} calls of echo, node ${process.version}, ${cpus()[0]?.model ?? 'cpu'}, load ${loadavg()[0]?.toFixed(2)}`);
const all = [await measure('stdio'), await measure('http')];
let ok = true;
for (const { transport, results } of all) {
  for (const r of results) {
    // The target applies like for like: against the raw client whose server is also in its own session (stdio, Linux).
    const ratio = r.likeForLike ?? r.ratio;
    if (r.name === 'agentlib MCPClient' && ratio > TARGET) ok = false;
    const like = r.likeForLike === undefined ? '' : `   like for like ${r.likeForLike.toFixed(2)}×`;
    console.log(`  ${transport.padEnd(5)} ${r.name.padEnd(36)} ${String(r.medianUs).padStart(6)} µs/call  ${r.ratio.toFixed(2)}×${like}`);
  }
}
console.log(ok ? `target met: agentlib MCPClient ≤ ${TARGET}× the raw SDK client` : `target missed: agentlib MCPClient > ${TARGET}× the raw SDK client`);
if (!args['no-json']) {
  mkdirSync(dirname(args.json), { recursive: true });
  writeFileSync(args.json, `${JSON.stringify({ calls, rounds, target: TARGET, node: process.version, results: all }, null, 2)}\n`);
}
if (args.check && !ok) process.exit(1);
