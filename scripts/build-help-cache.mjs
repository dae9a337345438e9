// Renders `agentlib --help` and each command's `agentlib <command> --help` once per terminal width
// with the built CLI (dist/cli/main.js) and stores them in dist/cli/help/<width>.txt and
// dist/cli/help/<command>/<width>.txt. The launcher prints these for a bare `agentlib --help` or
// `agentlib <command> --help` without loading the CLI or yargs (start-up within ~1.3x of
// `node -e 0`); a test checks that each file equals what the CLI itself prints. Run after tsc (npm
// run build does).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';

const { main } = await import(new URL('../dist/cli/main.js', import.meta.url).href);
const { commandDescriptors } = await import(new URL('../dist/cli/commands.js', import.meta.url).href);
const dir = new URL('../dist/cli/help/', import.meta.url);
rmSync(dir, { recursive: true, force: true });

/** Writes what `agentlib <argv>` prints at each width into `target`/<width>.txt. */
async function render(argv, target) {
  mkdirSync(target, { recursive: true });
  // yargs wraps help at min(100, columns ?? 80): widths 40..100 cover every terminal the launcher
  // answers from the cache (narrower ones take the normal path).
  for (let width = 40; width <= 100; width++) {
    let out = '';
    let err = '';
    const io = { stdout: { write: (s) => void (out += s), columns: width }, stderr: { write: (s) => void (err += s) }, env: {} };
    const code = await main(argv, { io, handleSignals: false });
    if (code !== 0 || err !== '') throw new Error(`agentlib ${argv.join(' ')} at width ${width} exited ${code}: ${err}`);
    writeFileSync(new URL(`${width}.txt`, target), out);
  }
}

for (const { name } of commandDescriptors) {
  if (!/^[a-z][a-z-]*$/.test(name)) throw new Error(`command name ${name} cannot be a help directory`);
  await render([name, '--help'], new URL(`${name}/`, dir));
}
// The global help last: the tests' staleness check (test/support/cli-build.ts) takes 100.txt as
// the newest output of this step.
await render(['--help'], dir);
