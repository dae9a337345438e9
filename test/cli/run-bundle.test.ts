import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { binPath, ensureCliBuilt, repoRoot } from '../support/cli-build.js';

// `agentlib run` runs from dist/cli/run.bundle.cjs (scripts/bundle-run.mjs, decision 0023): one
// file with a V8 code cache instead of ~320 ES modules. Tool files import agentlib through the
// tool entries (dist/lib/**/tool-entry.js), which serve the bundle's instances: the library is
// never loaded a second time, and classes are the same on both sides.

const PROMPT = 'What is 1231 * 2331?';
const CASSETTE = 'examples/calculator/cassette.jsonl';
const FIXTURES = 'test/cli/fixtures/run-bundle';

describe('agentlib run from its bundle', () => {
  let dir = '';
  before(() => {
    ensureCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'agentlib-run-bundle-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs `agentlib run <agent>` on the calculator's cassette with a module trace. */
  function run(agent: string, cacheDir: string, name: string): { stdout: string; stderr: string; modules: string[] } {
    const trace = join(dir, `${name}.txt`);
    const result = spawnSync(process.execPath, ['--import', join(repoRoot, 'test', 'support', 'module-trace-register.mjs'), binPath, 'run', agent, PROMPT, '--replay', CASSETTE, '--no-trace', '--quiet'], {
      cwd: repoRoot,
      env: { ...process.env, CI: 'true', NO_COLOR: '1', AGENTLIB_CACHE_DIR: cacheDir, AGENTLIB_MODULE_TRACE: trace },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /2,869,461/);
    const modules = readFileSync(trace, 'utf8')
      .split('\n')
      .map((line) => line.split('\t')[1])
      .filter((module): module is string => module !== undefined && !module.startsWith('node:'));
    return { stdout: result.stdout, stderr: result.stderr, modules: [...new Set(modules)].sort() };
  }

  /** agentlib's own modules among `modules`, relative to the checkout (`dist/lib/tool-entry.js`). */
  const own = (modules: readonly string[]): string[] =>
    modules
      .map((module) => module.replace(/^file:\/\//, ''))
      .filter((path) => path.startsWith(repoRoot))
      .map((path) => path.slice(repoRoot.length).replace(/^[\\/]/, '').replaceAll('\\', '/'));

  test('a warm run of the calculator loads a handful of modules: the launcher, the bundle loader, the cached tool module and one tool entry', () => {
    const cacheDir = join(dir, 'cache');
    run('examples/calculator/agent.yaml', cacheDir, 'first');
    // The build ships the bundle's code cache (made by a run of this example): a first run takes it
    // and writes none of its own.
    const isCodeCache = (name: string): boolean => name.startsWith('run.bundle.cjs.') && name.endsWith('.v8cache');
    assert.equal(readdirSync(join(repoRoot, 'dist', 'cli')).filter(isCodeCache).length, 1);
    assert.deepEqual(readdirSync(cacheDir).filter(isCodeCache), []);
    const { modules } = run('examples/calculator/agent.yaml', cacheDir, 'warm');
    assert.deepEqual(own(modules), ['bin/agentlib.js', 'dist/cli/load-run-bundle.js', 'dist/lib/core/cache-dir.js', 'dist/lib/tool-entry.js', 'dist/tui/cached-bundle.js']);
    // The rest: the tool module from the cache; no package (zod, yaml, yargs, chalk are in the bundle).
    assert.deepEqual(
      modules.filter((module) => !own(modules).some((path) => module.endsWith(path))),
      modules.filter((module) => module.includes(`${join(cacheDir, 'tools')}`.replaceAll('\\', '/'))),
    );
    assert.ok(modules.length <= 8, `${modules.length} modules: ${modules.join(', ')}`);
  });

  const HOOKS = ['dist/lib/tools/bundled-library-hooks.js'];
  for (const [kind, agent, how, hooks, entries] of [
    ['TypeScript', 'agent-ts.yaml', 'compiled into the cache, importing the tool entries', [], ['dist/lib/core/tool-entry.js', 'dist/lib/tool-entry.js']],
    // (the trace sees what an import resolves to before the redirecting hook does: the entries;
    // their tool entries are what was loaded, as the absence of the library's modules shows)
    ['JavaScript', 'agent-js.yaml', 'imported by Node, its agentlib imports redirected to the tool entries', HOOKS, ['dist/lib/core/index.js', 'dist/lib/index.js']],
    ['TypeScript', 'agent-ts.yaml', 'compiled by tsx when the cache cannot be used, its agentlib imports redirected', HOOKS, undefined],
  ] as const) {
    test(`a ${kind} tool file (${how}) gets the library's own classes from agentlib and agentlib/core; ZodError holds both ways with zod`, () => {
      let cacheDir = join(dir, `cache-${kind}`);
      if (entries === undefined) {
        cacheDir = join(dir, 'a-file-not-a-directory');
        writeFileSync(cacheDir, '');
      }
      const { stderr, modules } = run(`${FIXTURES}/${agent}`, cacheDir, `${kind}-${hooks.length}-${String(entries === undefined)}`);
      const line = /^identity (.*)$/m.exec(stderr)?.[1];
      assert.ok(line !== undefined, stderr);
      assert.deepEqual(JSON.parse(line), {
        toolValidationError: true,
        agentlibError: true,
        coreEntrySameClass: true,
        agentlibZodErrorIsZodError: true,
        zodErrorIsAgentlibZodError: true,
      });
      // No module of the library itself was loaded beside the bundle: only tool entries (an import
      // of an entry may be resolved to it first, then redirected; its own imports never are).
      const library = own(modules).filter((path) => path.startsWith('dist/lib/') && !path.endsWith('/tool-entry.js') && !/^dist\/lib\/(.+\/)?index\.js$/.test(path));
      // (the redirecting resolve hook is registered only for a module Node imports itself)
      assert.deepEqual(library, ['dist/lib/core/cache-dir.js', ...hooks]);
      if (entries !== undefined) assert.deepEqual(own(modules).filter((path) => /^dist\/lib\/(.+\/)?(index|tool-entry)\.js$/.test(path)), entries);
      assert.ok(!own(modules).includes('dist/cli/main.js'), 'the CLI runs from the bundle');
    });
  }

  test('outside the bundle a tool entry is its public entry: the same values, name for name', async () => {
    for (const sub of ['', 'core/', 'tools/', 'config/', 'storage/']) {
      const entry = (await import(pathToFileURL(join(repoRoot, 'dist', 'lib', sub, 'index.js')).href)) as Record<string, unknown>;
      const toolEntry = (await import(pathToFileURL(join(repoRoot, 'dist', 'lib', sub, 'tool-entry.js')).href)) as Record<string, unknown>;
      assert.deepEqual(Object.keys(toolEntry).sort(), Object.keys(entry).sort());
      for (const name of Object.keys(entry)) assert.equal(toolEntry[name], entry[name], `${sub}${name}`);
    }
  });
});
