import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { binPath, ensureCliBuilt } from '../support/cli-build.js';
import { requires } from '../support/requirements.js';
import { shellQuote, waitFor } from '../support/tmux.js';
import { sampleTrace } from './trace-viewer/traces.js';


describe('trace viewer in a real terminal (tmux)', requires('tmux'), () => {
  // Each start gets a new session, and none is killed before the end: killing the only session
  // stops the tmux server, and a new-session right after can race with its exit.
  const sessions: string[] = [];
  let session = '';
  const newSession = (command: string): void => {
    session = `agentlib-trace-view-${process.pid}-${sessions.length}`;
    sessions.push(session);
    execFileSync('tmux', ['new-session', '-d', '-s', session, '-x', '120', '-y', '32', command]);
  };
  let dir: string;
  before(async () => {
    ensureCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'agentlib-trace-view-'));
    await sampleTrace().writeJSONL(join(dir, 'run.jsonl'));
  });
  after(() => {
    for (const name of sessions) spawnSync('tmux', ['kill-session', '-t', name], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  });

  const pane = (): string => execFileSync('tmux', ['capture-pane', '-p', '-t', session], { encoding: 'utf8' });
  const selected = (): string => pane().split('\n').find((line) => line.startsWith('›')) ?? '';
  const send = (...keys: string[]): void => void execFileSync('tmux', ['send-keys', '-t', session, ...keys]);

  test('j j Enter e q: moves, folds, filters errors and quits with 0, restoring the screen', async () => {
    const exitFile = join(dir, 'exit-code');
    // The built binary, by trace id: `agentlib trace view run --dir <dir>` finds <dir>/run.jsonl.
    const command = `cd ${shellQuote(dir)} && printf 'before the viewer\\n' && env -u CI -u CONTINUOUS_INTEGRATION NO_COLOR=1 AGENTLIB_CACHE_DIR=${shellQuote(join(dir, 'cache'))} ${shellQuote(process.execPath)} ${shellQuote(binPath)} trace view run --dir ${shellQuote(dir)}; echo $? > ${shellQuote(exitFile)}; sleep 60`;
    newSession(command);
    await waitFor(() => /q quit/.test(pane()), 'the first frame');
    let screen = pane();
    assert.match(screen, /trace weather · openai\/gpt-4o · completed · run run_1/);
    assert.match(screen, /duration 400ms · steps 5 · llm 2 · tools 2 · errors 1/);
    assert.match(selected(), /▾ ✓ llm_call gpt-4o\s+100ms\s+60\s+\$0\.0020/);
    assert.doesNotMatch(screen, /before the viewer/, 'drawn on the alternate screen');

    send('j');
    await waitFor(() => /tool_selection/.test(selected()), 'j to select the tool selection');
    assert.match(pane(), /── reasoning ──\s+need both the weather and the time/);

    send('j');
    await waitFor(() => /tool_execution get_time/.test(selected()), 'j to select the failed tool call');
    assert.match(pane(), /ToolExecutionError: clock unavailable/);

    send('h', 'Enter');
    await waitFor(() => /▸ ✓ tool_selection/.test(selected()), 'h then Enter: back to the parent, then folded');
    screen = pane();
    assert.doesNotMatch(screen, /tool_execution get_(time|weather)/, 'the folded children are hidden');

    send('Enter', 'e');
    await waitFor(() => /errors only: on/.test(pane()), 'e to show errors only');
    screen = pane();
    assert.match(screen, /3\/5 steps/);
    assert.match(screen, /x tool_execution get_time/);
    assert.doesNotMatch(screen, /tool_execution get_weather/);

    send('q');
    await waitFor(() => existsSync(exitFile) && readFileSync(exitFile, 'utf8').trim() !== '', 'the viewer to exit');
    assert.equal(readFileSync(exitFile, 'utf8').trim(), '0');
    screen = pane();
    assert.match(screen, /before the viewer/, 'the previous screen is back');
    assert.doesNotMatch(screen, /q quit/);
  });
  test("the code cache: the build's is used as it is; with another V8 configuration one is written after the first run, used by the next, replaced when damaged", async () => {
    const cacheDir = join(dir, 'code-cache');
    const cacheFiles = (): string[] => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((name) => name.endsWith('.v8cache')) : []);
    /** Opens the trace, checks the first frame, quits; resolves with the exit code. */
    // `--stack-size=983` (Node's default is 984): another V8 flag hash, so the code cache the build
    // left next to the bundle does not match, as with a Node other than the one that built it.
    const viewOnce = async (run: number, otherV8 = true): Promise<string> => {
      const exitFile = join(dir, `cache-exit-${run}`);
      const node = otherV8 ? `${shellQuote(process.execPath)} --stack-size=983` : shellQuote(process.execPath);
      const command = `env -u CI -u CONTINUOUS_INTEGRATION NO_COLOR=1 AGENTLIB_CACHE_DIR=${shellQuote(cacheDir)} ${node} ${shellQuote(binPath)} trace view ${shellQuote(join(dir, 'run.jsonl'))}; echo $? > ${shellQuote(exitFile)}; sleep 60`;
      newSession(command);
      await waitFor(() => /q quit/.test(pane()), `the first frame (run ${run})`);
      assert.match(pane(), /duration 400ms · steps 5 · llm 2 · tools 2 · errors 1/);
      send('q');
      await waitFor(() => existsSync(exitFile) && readFileSync(exitFile, 'utf8').trim() !== '', `the viewer to exit (run ${run})`);
      return readFileSync(exitFile, 'utf8').trim();
    };

    assert.equal(await viewOnce(0, false), '0');
    assert.deepEqual(cacheFiles(), [], "the build's code cache served the first run: nothing written");

    assert.equal(await viewOnce(1), '0');
    const [file] = cacheFiles();
    assert.ok(file !== undefined && cacheFiles().length === 1, 'the first run wrote one cache file');
    const written = readFileSync(join(cacheDir, file));

    assert.equal(await viewOnce(2), '0');
    assert.deepEqual(readFileSync(join(cacheDir, file)), written, 'the cache was used as it was, not rewritten');

    const damaged = Buffer.from(written);
    damaged[damaged.length - 100] = (damaged[damaged.length - 100] ?? 0) ^ 0xff;
    writeFileSync(join(cacheDir, file), damaged);
    assert.equal(await viewOnce(3), '0', 'a damaged cache changes nothing for the user');
    assert.notDeepEqual(readFileSync(join(cacheDir, file)), damaged, 'and was replaced');
  });
});
