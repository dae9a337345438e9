import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { agentNameProblem, resolveProvider, resolveTemplate, templateDescription } from '../../../commands/init/choices.js';
import { UsageError } from '../../../cli/usage-error.js';

function usageError(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (error: unknown) => UsageError.isInstance(error) && pattern.test(error.message));
}

describe('init choices', () => {
  test('resolveTemplate: blank or a bundled template; a typo gets a did-you-mean', () => {
    assert.equal(resolveTemplate('blank'), 'blank');
    assert.equal(resolveTemplate(' rag_chatbot '), 'rag_chatbot');
    usageError(() => resolveTemplate('data_analist'), /did you mean "data_analyst"\?/);
    usageError(() => resolveTemplate('blnk'), /did you mean "blank"\?/);
    usageError(() => resolveTemplate('zzzzzz'), /unknown template "zzzzzz" for --template \(choose one of: blank, /);
    usageError(() => resolveTemplate(''), /--template needs a value/);
  });

  test('resolveProvider: case-insensitive; a typo gets a did-you-mean', () => {
    assert.equal(resolveProvider('Gemini'), 'gemini');
    usageError(() => resolveProvider('opnai'), /did you mean "openai"\?/);
    usageError(() => resolveProvider('openai-compatible'), /choose one of: openai, anthropic, gemini, ollama/);
  });

  test("templateDescription: the README's first line that is not a heading", () => {
    assert.match(templateDescription('code_reviewer'), /^Reviews a codebase with read-only, root-confined tools: read_file/);
    assert.ok(templateDescription('research_assistant', {}, 30).length <= 30);
    assert.equal(templateDescription('no_such_template'), '');
  });

  test('agentNameProblem', () => {
    assert.equal(agentNameProblem('support bot.v2'), undefined);
    assert.match(agentNameProblem('  ') ?? '', /empty/);
    assert.match(agentNameProblem('a\nb') ?? '', /invalid/);
  });
});
