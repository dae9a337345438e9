import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as errors from '../../../lib/core/errors/index.js';

const { AgentlibError, ProviderError, ToolValidationError, MCPError, MCPConnectionError, MCPToolError, BudgetExceededError } = errors;

describe('error classes', () => {
  test('every spec error exists as its own class with a stable name', () => {
    const names = [
      'ToolValidationError', 'ToolExecutionError', 'ProviderConfigurationError', 'MemoryLimitExceededError',
      'GuardrailError', 'BudgetExceededError', 'CancellationError', 'GraphExecutionError', 'MCPError',
      'MCPConnectionError', 'MCPToolError', 'SessionNotFoundError',
    ];
    for (const name of names) assert.equal(typeof (errors as Record<string, unknown>)[name], 'function', name);
  });

  test('isInstance works across package copies through Symbol.for markers', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('agentlib.error')]: true, [Symbol.for('agentlib.error.ProviderError')]: true });
    assert.equal(ProviderError.isInstance(foreign), true);
    assert.equal(AgentlibError.isInstance(foreign), true);
    assert.equal(ToolValidationError.isInstance(foreign), false);
    assert.equal(ProviderError.isInstance(new Error('plain')), false);
    assert.equal(ProviderError.isInstance(null), false);
  });

  test('subclass markers: MCPToolError is an MCPError but not an MCPConnectionError', () => {
    const error = new MCPToolError('boom', { toolName: 'read_file', server: 'fs' });
    assert.equal(MCPError.isInstance(error), true);
    assert.equal(MCPToolError.isInstance(error), true);
    assert.equal(MCPConnectionError.isInstance(error), false);
    assert.equal(error.name, 'MCPToolError');
    assert.equal(error.toolName, 'read_file');
  });

  test('cause and typed fields are kept', () => {
    const cause = new Error('socket hang up');
    const error = new ProviderError('openai failed', { provider: 'openai', status: 503, requestId: 'req_1', cause });
    assert.equal(error.cause, cause);
    assert.equal(error.retryable, true);
    assert.equal(error.status, 503);
    assert.equal(new ProviderError('bad key', { provider: 'openai', status: 401 }).retryable, false);
    const budget = new BudgetExceededError({ kind: 'tokens', limit: 10, actual: 12 });
    assert.match(budget.message, /12 tokens > 10/);
  });
});
