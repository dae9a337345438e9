// One built `agentlib chat` per test file in a detached tmux session, offline: a scratch copy of
// the calculator example, a fake key and a closed port (any network attempt would fail).
import { execFileSync, spawnSync } from 'node:child_process';
import { after, before } from 'node:test';
import { binPath, ensureCliBuilt } from '../../support/cli-build.js';
import { shellQuote } from '../../support/tmux.js';
import { scratchProject } from '../../commands/run-helpers.js';

/** The chat of one test file: start it, read its screen (joined lines, with scrollback), type. */
export interface ChatInTmux {
  /** The scratch project (its `dir` is the chat's working directory, `agent` the calculator YAML). */
  readonly project: ReturnType<typeof scratchProject>;
  /** Starts `agentlib chat <agent> --replay <cassette>`; its exit code is written to `exitFile`. */
  start: (cassette: string, exitFile: string, columns: number, rows: number) => void;
  /** The screen and up to 200 lines of scrollback, wrapped lines joined. */
  pane: () => string;
  /** Types `text` and presses Enter. */
  line: (text: string) => void;
}

/** Registers the file's before/after hooks (build, scratch project; kill the session, clean up). */
export function chatInTmux(name: string): ChatInTmux {
  const session = `agentlib-${name}-${process.pid}`;
  let project: ReturnType<typeof scratchProject> | undefined;
  before(() => {
    ensureCliBuilt();
    project = scratchProject();
  });
  after(() => {
    spawnSync('tmux', ['kill-session', '-t', session], { stdio: 'ignore' });
    project?.cleanup();
  });
  const keys = (...args: string[]): void => void execFileSync('tmux', ['send-keys', '-t', session, ...args]);
  const made = (): ReturnType<typeof scratchProject> => {
    if (project === undefined) throw new Error('the scratch project is made in before()');
    return project;
  };
  return {
    get project() {
      return made();
    },
    start: (cassette, exitFile, columns, rows) => {
      const { dir, agent } = made();
      const env = 'env -u CI -u CONTINUOUS_INTEGRATION NO_COLOR=1 OPENAI_API_KEY=sk-test-not-a-real-key OPENAI_BASE_URL=http://127.0.0.1:9/v1';
      const command = `cd ${shellQuote(dir)} && ${env} ${shellQuote(process.execPath)} ${shellQuote(binPath)} chat ${shellQuote(agent)} --replay ${shellQuote(cassette)}; echo $? > ${shellQuote(exitFile)}; sleep 60`;
      execFileSync('tmux', ['new-session', '-d', '-s', session, '-x', String(columns), '-y', String(rows), command]);
    },
    pane: () => execFileSync('tmux', ['capture-pane', '-p', '-J', '-S', '-200', '-t', session], { encoding: 'utf8' }),
    line: (text) => {
      keys('-l', text);
      keys('Enter');
    },
  };
}
