import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { stripThink, ThinkFilter } from '../../../lib/agent/think-filter.js';

describe('think stripping', () => {
  test('whole text', () => {
    assert.deepEqual(stripThink('<think>plan it</think>The answer is 4.'), { text: 'The answer is 4.', reasoning: 'plan it' });
    assert.deepEqual(stripThink('no tags'), { text: 'no tags', reasoning: '' });
  });

  test('tags split across every possible chunk boundary', () => {
    const full = 'Hi <think>secret plan</think>there <think>more</think>end';
    for (let size = 1; size <= full.length; size++) {
      const filter = new ThinkFilter();
      let text = '';
      let reasoning = '';
      for (let i = 0; i < full.length; i += size) {
        const out = filter.push(full.slice(i, i + size));
        text += out.text;
        reasoning += out.reasoning;
      }
      const rest = filter.flush();
      text += rest.text;
      reasoning += rest.reasoning;
      assert.equal(text, 'Hi there end', `chunk size ${size}`);
      assert.equal(reasoning, 'secret planmore', `chunk size ${size}`);
    }
  });

  test('a lone "<" that is not a tag is released at the end', () => {
    const filter = new ThinkFilter();
    assert.equal(filter.push('a <').text, 'a ');
    assert.equal(filter.flush().text, '<');
  });
});
