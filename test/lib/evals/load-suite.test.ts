import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConfigFileError } from '../../../lib/core/errors/config-file-error.js';
import { DatasetLoader } from '../../../lib/evals/dataset-loader.js';
import { parseSuite } from '../../../lib/evals/load-suite.js';

async function problems(text: string): Promise<string[]> {
  try {
    await parseSuite(text, { source: 'suite.yaml', env: {} });
  } catch (error) {
    assert.ok(ConfigFileError.isInstance(error), String(error));
    return error.message.split('\n');
  }
  assert.fail('the suite loaded');
}

describe('parseSuite: both vocabularies into one model', () => {
  it('reads promptfoo tests (vars, assert, not-, threshold, weight, metric, defaultTest, evaluateOptions)', async () => {
    const suite = await parseSuite(
      [
        'description: weather',
        'agent: agent.yaml',
        'grader: openai:gpt-4o-mini',
        'evaluateOptions: { maxConcurrency: 2, repeat: 3, timeoutMs: 5000 }',
        'defaultTest:',
        '  vars: { unit: celsius }',
        '  assert:',
        '    - type: not-contains',
        '      value: error',
        'tests:',
        '  - description: Oslo',
        '    input: "Weather in {{city}} in {{unit}}?"',
        '    vars: { city: Oslo }',
        '    threshold: 0.5',
        '    tags: [smoke]',
        '    assert:',
        '      - { type: tool-used, value: get_weather, weight: 2, metric: tools }',
        '      - { type: llm-rubric, value: mentions the temperature, threshold: 0.8 }',
      ].join('\n'),
      { source: '/suites/weather.yaml', env: {} },
    );
    assert.equal(suite.description, 'weather');
    assert.equal(suite.agent, '/suites/agent.yaml');
    assert.deepEqual(suite.options, { maxConcurrency: 2, repeat: 3, timeoutMs: 5000 });
    const [only] = suite.cases;
    assert.ok(only);
    assert.equal(only.id, 'Oslo');
    assert.equal(only.input, 'Weather in Oslo in celsius?');
    assert.equal(only.threshold, 0.5);
    assert.deepEqual(only.tags, ['smoke']);
    assert.deepEqual(
      only.assert.map((a) => [a.type, a.negate, a.value, a.weight, a.metric ?? null, a.threshold ?? null]),
      [
        ['contains', true, 'error', 1, null, null],
        ['tool-used', false, 'get_weather', 2, 'tools', null],
        ['llm-rubric', false, 'mentions the temperature', 1, null, 0.8],
      ],
    );
  });

  it("reads the spec's TestCase fields into the same assertions", async () => {
    const suite = await parseSuite(
      [
        'tests:',
        '  - name: refund',
        '    input: Refund order 42',
        '    expect_tool: issue_refund',
        '    expect_tool_args: { issue_refund: { order_id: 42 } }',
        '    expect_contains: [refund, "42"]',
        '    expect_not_contains: sorry',
        '    expect_no_pii: true',
        '    expect_refusal: false',
        '    expect_iterations_lte: 3',
        '    expect_max_words: 50',
        '    rubric: polite',
        '    reference: Your refund is on its way',
        '    weight: 2',
        '    approvals: { issue_refund: approve, "*": deny }',
      ].join('\n'),
      { env: {} },
    );
    const [c] = suite.cases;
    assert.ok(c);
    assert.equal(c.weight, 2);
    assert.equal(c.reference, 'Your refund is on its way');
    assert.deepEqual(c.approvals, { issue_refund: { approved: true }, '*': { approved: false } });
    assert.deepEqual(
      c.assert.map((a) => `${a.negate ? 'not-' : ''}${a.type}`),
      ['tool-used', 'tool-args-match', 'icontains-all', 'not-icontains-any', 'pii-leak', 'not-refusal', 'iterations', 'words', 'llm-rubric'],
    );
    assert.equal(c.assert.find((a) => a.type === 'iterations')?.threshold, 3);
  });

  it('reports every problem at once with file:line:col and did-you-mean', async () => {
    const lines = await problems(
      [
        'descripton: x', // 1
        'prompts: [a]', // 2
        'tests:', // 3
        '  - input: hi', // 4
        '    assert:', // 5
        '      - type: icontans', // 6
        '        value: x', // 7
        '      - type: regex', // 8
        '        value: "(("', // 9
        '  - input: "{{nope}}"', // 10
        '    expect_tool: search', // 11
        '  - input: yo', // 12
        '    expect_refusal: maybe', // 13
      ].join('\n'),
    );
    assert.equal(lines.length, 5, lines.join('\n'));
    assert.match(lines[0] ?? '', /^suite\.yaml:1:1: unknown key "descripton".*did you mean "description"/);
    assert.match(lines[1] ?? '', /^suite\.yaml:2:1: "prompts" is not used by agentlib suites/);
    assert.match(lines[2] ?? '', /^suite\.yaml:6:9: unknown assertion type "icontans" — did you mean "icontains"/);
    assert.match(lines[3] ?? '', /^suite\.yaml:8:9: assertion "regex" has an invalid regular expression/);
    assert.match(lines[4] ?? '', /^suite\.yaml:13:21: "tests\[2\]\.expect_refusal" must be true or false/);
  });

  it('reports an input var that does not exist and a test with no assertions', async () => {
    const lines = await problems(['tests:', '  - input: "{{nope}}"', '    expect_tool: search', '  - input: hello'].join('\n'));
    assert.match(lines[0] ?? '', /^suite\.yaml:2:5: tests\[0\] uses \{\{nope\}\}/);
    assert.match(lines[1] ?? '', /^suite\.yaml:4:5: tests\[1\] has no assertions/);
  });

  it('loads tests from a dataset file named by tests:, with defaultTest applied', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentlib-suite-'));
    await writeFile(join(dir, 'cases.jsonl'), '{"input": "a", "expect_contains": "a"}\n\n{"vars": {"question": "b"}}\n');
    const suite = await parseSuite('tests: cases.jsonl\ndefaultTest:\n  assert: [{ type: is-json }]\n', { source: join(dir, 'suite.yaml'), env: {} });
    assert.deepEqual(suite.cases.map((c) => [c.input, c.assert.map((a) => a.type)]), [['a', ['is-json', 'icontains-all']], ['b', ['is-json']]]);
  });
});

describe('DatasetLoader', () => {
  it('reads CSV with __expected columns, vars, tags and metadata', () => {
    const csv = ['question,__expected,__expected2,__tags,__metadata:tier', 'What is 2+2?,contains: 4,not-icontains: five,"math, smoke",free', '"Say ""hi""",hi,latency: 500,,paid'].join('\n');
    const cases = new DatasetLoader({ env: {} }).parse(csv, 'cases.csv');
    assert.equal(cases.length, 2);
    assert.deepEqual(cases[0]?.assert.map((a) => [a.type, a.negate, a.value]), [['contains', false, '4'], ['icontains', true, 'five']]);
    assert.deepEqual(cases[0]?.tags, ['math', 'smoke']);
    assert.deepEqual(cases[0]?.metadata, { tier: 'free' });
    assert.equal(cases[1]?.input, 'Say "hi"');
    assert.deepEqual(cases[1]?.assert.map((a) => [a.type, a.value ?? a.threshold]), [['equals', 'hi'], ['latency', 500]]);
  });

  it('reports CSV problems at row:col', () => {
    const csv = ['question,__expectd,__expected', 'q,x,regex: ((', 'q2,,tool-uesd: x'].join('\n');
    assert.throws(
      () => new DatasetLoader({ env: {} }).parse(csv, 'cases.csv'),
      (error: Error) => {
        const lines = error.message.split('\n');
        assert.match(lines[0] ?? '', /^cases\.csv:1:10: unknown column "__expectd" — did you mean "__expected"/);
        assert.match(lines[1] ?? '', /^cases\.csv:2:5: assertion "regex" has an invalid regular expression/);
        assert.match(lines[2] ?? '', /^cases\.csv:3:5: unknown assertion type "tool-uesd" — did you mean "tool-used"/);
        return true;
      },
    );
  });

  it('reports JSONL problems on the line of the file', () => {
    assert.throws(
      () => new DatasetLoader({ env: {} }).parse('{"input": "a", "expect_contains": "a"}\n{"input": "b", "expect_tol": "x"}\n', 'cases.jsonl'),
      /cases\.jsonl:2:16: unknown key "expect_tol" under "line 2" — did you mean "expect_tool"/,
    );
  });

  it('reads a YAML list and JSON with positions', () => {
    assert.equal(new DatasetLoader({ env: {} }).parse('- input: a\n  expect_output: a\n', 'c.yaml')[0]?.assert[0]?.type, 'equals');
    assert.throws(() => new DatasetLoader({ env: {} }).parse('[\n  {"input": "a", "asert": []}\n]', 'c.json'), /c\.json:2:18: unknown key "asert"/);
  });
});
