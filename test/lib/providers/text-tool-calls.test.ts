import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_TOOL_CALL_BYTES, parseTextToolCalls } from '../../../lib/providers/text-tool-calls.js';

const weather = { toolName: 'get_weather', parameters: { city: 'Lima' } };

describe('parseTextToolCalls', () => {
  test('a TOOL_CALL: directive becomes a call and is removed from the prose', () => {
    const result = parseTextToolCalls('I will look it up.\nTOOL_CALL: {"tool_name": "get_weather", "parameters": {"city": "Lima"}}');
    assert.deepEqual(result, { calls: [weather], errors: [], text: 'I will look it up.' });
  });

  test('the marker may omit the colon, and the JSON may span lines', () => {
    const text = 'TOOL_CALL {\n  "tool_name": "get_weather",\n  "parameters": {\n    "city": "Lima"\n  }\n}\nThanks.';
    assert.deepEqual(parseTextToolCalls(text), { calls: [weather], errors: [], text: 'Thanks.' });
  });

  test('JSON in prose without a marker is ignored, even in a ```json fence', () => {
    for (const text of [
      'Here is an example: {"tool_name": "get_weather", "parameters": {"city": "X"}}',
      'Example:\n```json\n{"tool_name": "get_weather", "parameters": {"city": "X"}}\n```',
      'You could send {"name": "get_weather", "params": {}} next time.',
    ]) {
      assert.deepEqual(parseTextToolCalls(text), { calls: [], errors: [], text });
    }
  });

  test('a bare mention of TOOL_CALL in prose is neither a call nor an error', () => {
    const text = 'I can emit a TOOL_CALL when I need data, or a TOOL_CALLS list.';
    assert.deepEqual(parseTextToolCalls(text), { calls: [], errors: [], text });
    assert.deepEqual(parseTextToolCalls('MY_TOOL_CALL: {"tool_name": "x"}').calls, [], 'the marker must be a whole word');
  });

  test('braces and quotes inside JSON strings do not end the directive', () => {
    const text = 'TOOL_CALL: {"tool_name": "note", "parameters": {"text": "a } b { c \\" } TOOL_CALL: {"}} after';
    const result = parseTextToolCalls(text);
    assert.deepEqual(result.errors, []);
    assert.deepEqual(result.calls, [{ toolName: 'note', parameters: { text: 'a } b { c " } TOOL_CALL: {' } }]);
    assert.equal(result.text, 'after');
  });

  test('nested objects and arrays in parameters are kept', () => {
    const result = parseTextToolCalls('TOOL_CALL: {"tool_name": "plan", "parameters": {"steps": [{"id": 1, "deps": []}, {"id": 2, "meta": {"x": {"y": null}}}]}}');
    assert.deepEqual(result.calls, [{ toolName: 'plan', parameters: { steps: [{ id: 1, deps: [] }, { id: 2, meta: { x: { y: null } } }] } }]);
  });

  test('a fenced ```tool_call block holds one or more calls', () => {
    const text = 'Calling now.\n```tool_call\n{"tool_name": "get_weather", "parameters": {"city": "Lima"}}\n{"tool_name": "get_time", "parameters": {}}\n```\nDone.';
    const result = parseTextToolCalls(text);
    assert.deepEqual(result.calls, [weather, { toolName: 'get_time', parameters: {} }]);
    assert.deepEqual(result.errors, []);
    assert.equal(result.text, 'Calling now.\nDone.');
    assert.equal(parseTextToolCalls('One.\n\n```tool_call\n{"tool_name": "x"}\n```\n\nTwo.').text, 'One.\n\nTwo.', 'paragraph breaks survive');
    const upper = parseTextToolCalls('~~~~TOOL_CALL\nTOOL_CALL: {"tool": "get_weather", "params": {"city": "Lima"}}\n~~~~');
    assert.deepEqual(upper, { calls: [weather], errors: [], text: '' });
  });

  test('alternative keys: tool / name for the name, params / arguments for the arguments', () => {
    const text = [
      'TOOL_CALL: {"tool": "a", "params": {"n": 1}}',
      'TOOL_CALL: {"name": "b", "arguments": {"n": 2}}',
      'TOOL_CALL: {"name": "c", "arguments": "{\\"n\\": 3}"}',
      'TOOL_CALL: {"tool_name": "d"}',
    ].join('\n');
    const result = parseTextToolCalls(text);
    assert.deepEqual(result.errors, []);
    assert.deepEqual(result.calls, [
      { toolName: 'a', parameters: { n: 1 } },
      { toolName: 'b', parameters: { n: 2 } },
      { toolName: 'c', parameters: { n: 3 } },
      { toolName: 'd', parameters: {} },
    ]);
  });

  test('multiple directives, arrays of calls, [TOOL_CALLS] and <tool_call> forms', () => {
    const text = 'First TOOL_CALL: {"tool_name": "a"} then [TOOL_CALLS][{"name": "b"}, {"name": "c"}] and\n<tool_call>\n{"name": "d", "arguments": {"k": 1}}\n</tool_call>\nend';
    const result = parseTextToolCalls(text);
    assert.deepEqual(result.errors, []);
    assert.deepEqual(result.calls.map((c) => c.toolName), ['a', 'b', 'c', 'd']);
    assert.equal(result.text, 'First then and\nend');
  });

  test('malformed JSON is an error, never a call with {}', () => {
    const unterminated = parseTextToolCalls('TOOL_CALL: {"tool_name": "get_weather", "parameters": {"city": }');
    assert.deepEqual(unterminated.calls, []);
    assert.equal(unterminated.errors.length, 1);
    assert.match(unterminated.errors[0]!, /unterminated JSON/);
    const invalid = parseTextToolCalls("TOOL_CALL: {'tool_name': 'get_weather', 'parameters': {}}\nTOOL_CALL: {\"tool_name\": \"ok\"}");
    assert.deepEqual(invalid.calls, [{ toolName: 'ok', parameters: {} }], 'a bad directive does not hide a good one');
    assert.match(invalid.errors[0]!, /^Tool call 1: invalid JSON \(.+\) in: \{'tool_name'/);
    const badArgs = parseTextToolCalls('TOOL_CALL: {"name": "x", "arguments": "{not json"}');
    assert.deepEqual(badArgs.calls, []);
    assert.match(badArgs.errors[0]!, /"arguments" is a string that is not valid JSON/);
  });

  test('a missing name or non-object parameters is an error', () => {
    const result = parseTextToolCalls(
      'TOOL_CALL: {"parameters": {"a": 1}}\nTOOL_CALL: {"tool_name": "", "parameters": {}}\nTOOL_CALL: {"tool_name": "x", "parameters": [1, 2]}\nTOOL_CALL: {"tool_name": "y", "params": "city=Rome"}\nTOOL_CALL: [1]',
    );
    assert.deepEqual(result.calls, []);
    assert.equal(result.errors.length, 5);
    assert.match(result.errors[0]!, /missing tool name/);
    assert.match(result.errors[1]!, /missing tool name/);
    assert.match(result.errors[2]!, /"parameters" must be a JSON object.*array/);
    assert.match(result.errors[3]!, /"params" must be a JSON object.*string/);
    assert.match(result.errors[4]!, /Tool call 5\[0\]: expected a JSON object/);
  });

  test('TOOL_CALL: followed by something other than JSON is an error', () => {
    const result = parseTextToolCalls('TOOL_CALL: get_weather(city="Rome")');
    assert.deepEqual(result.calls, []);
    assert.match(result.errors[0]!, /must be followed by a JSON object/);
    const emptyFence = parseTextToolCalls('```tool_call\n\n```');
    assert.match(emptyFence.errors[0]!, /empty/);
    const junkFence = parseTextToolCalls('```tool_call\nget_weather Rome\n```');
    assert.match(junkFence.errors[0]!, /expected a JSON object/);
  });

  test(`candidates over ${MAX_TOOL_CALL_BYTES} bytes are rejected`, () => {
    const make = (size: number) => {
      const prefix = '{"tool_name": "echo", "parameters": {"text": "';
      const suffix = '"}}';
      return prefix + 'x'.repeat(size - prefix.length - suffix.length) + suffix;
    };
    assert.equal(Buffer.byteLength(make(MAX_TOOL_CALL_BYTES)), MAX_TOOL_CALL_BYTES);
    assert.equal(parseTextToolCalls(`TOOL_CALL: ${make(MAX_TOOL_CALL_BYTES)}`).calls.length, 1, 'exactly at the limit is fine');
    const over = parseTextToolCalls(`TOOL_CALL: ${make(MAX_TOOL_CALL_BYTES + 1)} after`);
    assert.deepEqual(over.calls, []);
    assert.match(over.errors[0]!, /8193 bytes, over the 8192-byte limit/);
    assert.equal(over.text, 'after', 'the oversized directive is still removed');
    const multibyte = parseTextToolCalls(`TOOL_CALL: {"tool_name": "echo", "parameters": {"text": "${'é'.repeat(4100)}"}}`);
    assert.match(multibyte.errors[0]!, /over the 8192-byte limit/, 'the limit counts UTF-8 bytes, not characters');
    assert.equal(parseTextToolCalls(`TOOL_CALL: ${make(200)}`, { maxBytes: 100 }).errors.length, 1);
  });
});
