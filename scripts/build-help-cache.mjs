// Renders `agentlib --help` once per terminal width with the built CLI (dist/cli/main.js) and
// stores it in dist/cli/help/<width>.txt. The launcher prints these for a bare `agentlib --help`
// without loading the CLI or yargs (start-up within ~1.3x of `node -e 0`); a test checks that each
// file equals what the CLI itself prints. Run after tsc (npm run build does).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';

const { main } = await import(new URL('../dist/cli/main.js', import.meta.url).href);
const dir = new URL('../dist/cli/help/', import.meta.url);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
// yargs wraps help at min(100, columns ?? 80): widths 40..100 cover every terminal the launcher
// answers from the cache (narrower ones take the normal path).
for (let width = 40; width <= 100; width++) {
  let out = '';
  let err = '';
  const io = { stdout: { write: (s) => void (out += s), columns: width }, stderr: { write: (s) => void (err += s) }, env: {} };
  const code = await main(['--help'], { io, handleSignals: false });
  if (code !== 0 || err !== '') throw new Error(`agentlib --help at width ${width} exited ${code}: ${err}`);
  writeFileSync(new URL(`${width}.txt`, dir), out);
}
