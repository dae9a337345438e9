// Makes the V8 code cache of `agentlib trace view`'s fast-path bundle at build time, so that the
// first run after an install starts as fast as later ones (tui/cached-bundle.ts reads it when the
// user's cache directory has none). It runs the bundle the way the launcher does — on a fake
// 120×40 terminal, a small trace with LLM calls, tool calls and an error, until the first frame,
// then `q` — and saves the cache with every function compiled on the way, next to the bundle
// (dist/cli/<bundle>.<key>.v8cache; the key holds the bundle's content, Node's version, the
// architecture and V8's flags, so another Node simply does not find it).
// Optional: when the bundle is missing or anything here fails, it says so and exits 0 (the
// command then compiles on its first run, as without this step). Run after bundle-tui.mjs.
import { EventEmitter } from 'node:events';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cliDir = fileURLToPath(new URL('../dist/cli/', import.meta.url));
const BUNDLE = 'trace-view-fast-path.bundle.cjs';
const TIMEOUT_MS = 20_000;

/** A terminal for Ink: `columns` × `rows`, every write passed to `onWrite`. */
class Stdout extends EventEmitter {
  isTTY = true;
  columns = 120;
  rows = 40;
  constructor(onWrite) {
    super();
    this.onWrite = onWrite;
  }
  write(chunk) {
    this.onWrite(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  }
}

/** Keys for Ink: `press` delivers them as a terminal would. */
class Stdin extends EventEmitter {
  isTTY = true;
  pending = [];
  press(keys) {
    this.pending.push(keys);
    this.emit('readable');
  }
  read() {
    return this.pending.shift() ?? null;
  }
  setEncoding() {
    return this;
  }
  setRawMode() {
    return this;
  }
  resume() {
    return this;
  }
  pause() {
    return this;
  }
  ref() {
    return this;
  }
  unref() {
    return this;
  }
}

/** A small trace with the step kinds the viewer draws: LLM calls, tool selections, parallel tools, an error. */
async function writeTrace(dir) {
  const { AgentTrace } = await import(new URL('../dist/lib/trace/index.js', import.meta.url).href);
  const T0 = 1_700_000_000_000;
  const steps = [];
  let t = T0;
  let n = 0;
  const base = (type, startedAt, durationMs) => ({ id: `step_${++n}`, runId: 'run_cache', type, startedAt, timestamp: new Date(startedAt).toISOString(), durationMs, status: 'ok' });
  for (let i = 0; i < 20; i++) {
    const llm = { ...base('llm_call', t, 400), name: 'gpt-4o-mini', input: `${2 + i * 4} messages`, output: `Calling tools for round ${i} — ok`, usage: { promptTokens: 1200, completionTokens: 60, totalTokens: 1260 }, costUsd: 0.00021 };
    steps.push(llm);
    t += 400;
    const selection = { ...base('tool_selection', t, 0), parentId: llm.id, name: 'search, fetch', reasoning: `Round ${i}: look it up` };
    steps.push(selection);
    for (const [k, name] of ['search', 'fetch'].entries()) {
      const step = { ...base('tool_execution', t + 1, 50 + k * 70), parentId: selection.id, name, input: JSON.stringify({ round: i }) };
      steps.push(k === 1 && i % 5 === 0 ? { ...step, status: 'error', error: { name: 'ToolExecutionError', message: `${name} failed` } } : { ...step, output: `result of ${name} `.repeat(10) });
    }
    t += 200;
  }
  const trace = new AgentTrace({ runId: 'run_cache', agentName: 'cache', model: 'gpt-4o-mini', startedAt: T0, endedAt: t, status: 'completed', steps });
  const file = join(dir, 'trace.jsonl');
  writeFileSync(file, trace.toJSONL());
  return file;
}

async function main() {
  // Ink renders nothing until exit when it believes it runs in CI (is-in-ci reads these when the
  // bundle loads): the cache is made on the interactive path, the one users run.
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  const { loadCachedBundle } = await import(new URL('../dist/tui/cached-bundle.js', import.meta.url).href);
  const work = mkdtempSync(join(tmpdir(), 'agentlib-code-cache-'));
  try {
    const file = await writeTrace(work);
    const cacheDir = join(work, 'cache');
    const bundle = await loadCachedBundle(join(cliDir, BUNDLE), { cacheDir });
    if (bundle === undefined) return `no ${BUNDLE} in dist/cli/`;
    const stdin = new Stdin();
    let painted = false;
    const stdout = new Stdout((chunk) => {
      if (!painted && chunk.includes('q quit')) {
        painted = true;
        setImmediate(() => stdin.press('q'));
      }
    });
    const io = { stdout, stderr: { write: () => true }, env: {}, stdin, cwd: work };
    let timer;
    const timeout = new Promise((resolve) => (timer = setTimeout(() => resolve('timeout'), TIMEOUT_MS)));
    const code = await Promise.race([bundle.exports.traceViewFastPath(['trace', 'view', file, '--no-color'], io), timeout]);
    clearTimeout(timer);
    if (code !== 0 || !painted) return `the viewer ended with ${String(code)}${painted ? '' : ' before its first frame'}`;
    if (!bundle.save()) return 'V8 made no cache';
    for (const name of readdirSync(cliDir)) if (name.startsWith(`${BUNDLE}.`) && name.endsWith('.v8cache')) rmSync(join(cliDir, name), { force: true });
    copyFileSync(bundle.cacheFile, join(cliDir, basename(bundle.cacheFile)));
    return undefined;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

let problem;
try {
  problem = await main();
} catch (error) {
  problem = error instanceof Error ? error.message : String(error);
}
if (problem !== undefined) console.warn(`build-code-cache: no code cache for trace view (${problem}); its first run compiles instead`);
// Ink hid the cursor of the fake terminal, and its restore-cursor hook shows the cursor on the real
// stderr at exit: the build's output gets no escape sequence.
const writeStderr = process.stderr.write.bind(process.stderr);
process.stderr.write = (chunk, ...rest) => (chunk === '\u001B[?25h' ? true : writeStderr(chunk, ...rest));
// Ink and the viewer may leave handles behind (timers, the fake stdin): the build goes on.
process.exit(0);
