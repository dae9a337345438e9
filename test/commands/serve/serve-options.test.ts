import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { UsageError } from '../../../cli/usage-error.js';
import type { CommandArguments } from '../../../cli/command-descriptor.js';
import { serveSettings as settingsOf } from '../../../commands/serve/serve-options.js';

// Issue 13, item 5: a token with whitespace was accepted at start-up and could never match (a
// Bearer credential is one word). `--auth-token-file` keeps the token out of argv.

const TOKEN = 'a-long-enough-test-token';
const dir = mkdtempSync(join(tmpdir(), 'agentlib-serve-token-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** `serveSettings` given just these options (as yargs would pass them, with the globals). */
function serveSettings(options: Record<string, unknown>, env: Record<string, string>, cwd: string): ReturnType<typeof settingsOf> {
  const args: CommandArguments = { color: false, debug: false, _: [], ...options };
  return settingsOf(args, env, cwd);
}

function file(name: string, content: string): string {
  writeFileSync(join(dir, name), content);
  return name;
}

function refused(args: Record<string, unknown>, env: Record<string, string>, message: RegExp): void {
  assert.throws(() => serveSettings(args, env, dir), (error: unknown) => UsageError.isInstance(error) && message.test(error.message), `${JSON.stringify(args)} ${JSON.stringify(env)}`);
}

describe('serve settings: the auth token', () => {
  test('a token of whitespace, or with whitespace in it, is refused at start-up, from every source', () => {
    for (const bad of [' ', '\t', `${TOKEN} `, ` ${TOKEN}`, `${TOKEN.slice(0, 8)} ${TOKEN.slice(8)}`, `${TOKEN}\n`]) {
      refused({ authToken: bad }, {}, /from --auth-token cannot be used: .*whitespace/);
      refused({}, { AGENTLIB_AUTH_TOKEN: bad }, /from AGENTLIB_AUTH_TOKEN cannot be used: .*whitespace/);
    }
    refused({ authToken: '' }, {}, /--auth-token cannot be used: the token is empty/);
    refused({ authToken: 'short' }, {}, /at least 16 characters/);
  });

  test('--auth-token-file: the file holds the token; one trailing newline is dropped, relative to the working directory', () => {
    assert.equal(serveSettings({ authTokenFile: file('plain', TOKEN) }, {}, dir).authToken, TOKEN);
    assert.equal(serveSettings({ authTokenFile: file('lf', `${TOKEN}\n`) }, {}, dir).authToken, TOKEN);
    assert.equal(serveSettings({ authTokenFile: file('crlf', `${TOKEN}\r\n`) }, {}, dir).authToken, TOKEN);
    assert.equal(serveSettings({ authTokenFile: join(dir, 'lf') }, {}, '/').authToken, TOKEN, 'an absolute path');
    assert.equal(serveSettings({ authTokenFile: 'lf', host: '0.0.0.0' }, { AGENTLIB_AUTH_TOKEN: 'another-token-from-env' }, dir).authToken, TOKEN, 'the flag wins over the environment');
  });

  test('--auth-token-file: empty, whitespace, two lines, unreadable, or with --auth-token: refused', () => {
    refused({ authTokenFile: file('empty', '') }, {}, /--auth-token-file empty cannot be used: the token is empty/);
    refused({ authTokenFile: file('newline', '\n') }, {}, /the token is empty/);
    refused({ authTokenFile: file('spaces', '   \n') }, {}, /only whitespace/);
    refused({ authTokenFile: file('two-newlines', `${TOKEN}\n\n`) }, {}, /whitespace/);
    refused({ authTokenFile: file('two-lines', `${TOKEN}\nsecond-line-of-it\n`) }, {}, /whitespace/);
    refused({ authTokenFile: 'missing' }, {}, /Cannot read --auth-token-file missing: ENOENT/);
    refused({ authTokenFile: file('ok', TOKEN), authToken: TOKEN }, {}, /--auth-token or --auth-token-file, not both/);
  });

  test('a non-loopback host needs a token from one of the three sources', () => {
    refused({ host: '0.0.0.0' }, {}, /--auth-token <token>, --auth-token-file <path> or AGENTLIB_AUTH_TOKEN/);
    refused({ host: '0.0.0.0' }, { AGENTLIB_AUTH_TOKEN: '' }, /--auth-token-file/);
    assert.equal(serveSettings({ host: '0.0.0.0', authTokenFile: file('host', TOKEN) }, {}, dir).authToken, TOKEN);
  });

  test('--body-timeout: seconds, 30 by default, positive', () => {
    assert.equal(serveSettings({}, {}, dir).bodyTimeoutMs, 30_000);
    assert.equal(serveSettings({ bodyTimeout: 2.5 }, {}, dir).bodyTimeoutMs, 2500);
    refused({ bodyTimeout: 0 }, {}, /--body-timeout must be a positive number of seconds/);
  });
});
