import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { exitCodeFor, formatError } from '../../cli/errors.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { UsageError } from '../../cli/usage-error.js';
import {
  BudgetExceededError,
  CancellationError,
  ConfigurationError,
  ProviderConfigurationError,
  ProviderError,
  ToolExecutionError,
  ToolValidationError,
} from '../../lib/core/errors/index.js';

describe('exit codes', () => {
  test('the documented values', () => {
    assert.deepEqual({ ...ExitCode }, { OK: 0, EVAL_FAILED: 1, USAGE: 2, RUNTIME: 3, NOTHING_MATCHED: 4, WAITING_FOR_INPUT: 5, INTERRUPTED: 130 });
  });

  test('errors map to exit codes', () => {
    assert.equal(exitCodeFor(new UsageError('bad flag')), 2);
    assert.equal(exitCodeFor(new ConfigurationError('bad yaml')), 2);
    assert.equal(exitCodeFor(new ProviderConfigurationError('no key', { provider: 'openai' })), 2);
    assert.equal(exitCodeFor(new ToolValidationError('bad tool')), 2);
    assert.equal(exitCodeFor(new ProviderError('503', { provider: 'openai', status: 503 })), 3);
    assert.equal(exitCodeFor(new ToolExecutionError('crashed', { toolName: 't', callId: 'c' })), 3);
    assert.equal(exitCodeFor(new CancellationError()), 130);
    assert.equal(exitCodeFor(new DOMException('aborted', 'AbortError')), 130);
    assert.equal(exitCodeFor(new TypeError('bug')), 3);
    assert.equal(exitCodeFor('a string'), 3);
  });

  test('mapping works across package copies (Symbol.for markers, not instanceof)', () => {
    const foreign = Object.assign(new Error('no key'), {
      [Symbol.for('agentlib.error')]: true,
      [Symbol.for('agentlib.error.ProviderConfigurationError')]: true,
    });
    assert.equal(exitCodeFor(foreign), 2);
  });

  test('budget errors are runtime errors', () => {
    assert.equal(exitCodeFor(new BudgetExceededError({ kind: 'cost', limit: 1, actual: 2 })), 3);
  });
});

describe('formatError', () => {
  test('usage errors get a help hint; runtime agentlib errors do not', () => {
    assert.equal(formatError(new UsageError('Unknown command "x".')), 'agentlib: Unknown command "x".\nRun "agentlib --help" for usage.\n');
    assert.equal(formatError(new ConfigurationError('bad')), 'agentlib: ConfigurationError: bad\n');
    assert.equal(formatError('plain'), 'agentlib: plain\n');
    assert.equal(formatError(new TypeError('bug')), 'agentlib: TypeError: bug\nRun again with --debug for a stack trace.\n');
  });

  test('a usage error of a command points to that command\'s --help', () => {
    assert.equal(formatError(new UsageError('bad flag'), { command: 'run' }), 'agentlib: bad flag\nRun "agentlib run --help" for usage.\n');
  });

  test('provider errors name the provider, status and request id', () => {
    const text = formatError(new ProviderError('overloaded', { provider: 'anthropic', status: 529 }));
    assert.equal(text, 'agentlib: ProviderError: overloaded (provider anthropic, status 529)\n');
  });

  test('debug adds stacks of the error and its causes', () => {
    const text = formatError(new Error('outer', { cause: new Error('inner') }), { debug: true, program: 'x' });
    assert.match(text, /^x: outer\nError: outer\n\s+at /);
    assert.match(text, /Caused by: Error: inner/);
  });
});
