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

  test('idle: outside a block with nothing held back, when a chunk without "<" comes out unchanged', () => {
    const filter = new ThinkFilter();
    assert.equal(filter.idle, true);
    assert.deepEqual(filter.push('plain text'), { text: 'plain text', reasoning: '' });
    assert.equal(filter.idle, true);
    assert.deepEqual(filter.push('a <'), { text: 'a ', reasoning: '' });
    assert.equal(filter.idle, false, 'a possible tag is held back');
    assert.deepEqual(filter.push('thi'), { text: '', reasoning: '' });
    assert.deepEqual(filter.push('nk>plan'), { text: '', reasoning: 'plan' });
    assert.equal(filter.idle, false, 'inside a block');
    assert.deepEqual(filter.push('</think>'), { text: '', reasoning: '' });
    assert.equal(filter.idle, true);
    assert.deepEqual(filter.push('answer'), { text: 'answer', reasoning: '' });
    assert.deepEqual(filter.push('x <'), { text: 'x ', reasoning: '' });
    assert.deepEqual(filter.flush(), { text: '<', reasoning: '' });
    assert.equal(filter.idle, true, 'flush releases what was held back');
  });
});

describe('think stripping: randomised against the whole-text result', () => {
  test('random texts with tags, stray "<" and random chunking', () => {
    let seed = 7;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pieces = ['a', ' b', '<', '<t', '<think>', '</think>', 'x<y', '< z', '</', 'think', '>'];
    for (let round = 0; round < 500; round++) {
      let full = '';
      for (let i = 0; i < 12; i++) full += pieces[Math.floor(random() * pieces.length)];
      const whole = new ThinkFilter();
      const a = whole.push(full);
      const b = whole.flush();
      const filter = new ThinkFilter();
      let text = '';
      let reasoning = '';
      for (let i = 0; i < full.length; ) {
        const size = 1 + Math.floor(random() * 6);
        const out = filter.push(full.slice(i, i + size));
        text += out.text;
        reasoning += out.reasoning;
        i += size;
      }
      const rest = filter.flush();
      assert.equal(text + rest.text, a.text + b.text, JSON.stringify(full));
      assert.equal(reasoning + rest.reasoning, a.reasoning + b.reasoning, JSON.stringify(full));
    }
  });

  test('a "<" far from the end of a chunk is emitted at once', () => {
    const filter = new ThinkFilter();
    assert.deepEqual(filter.push('if a < b then'), { text: 'if a < b then', reasoning: '' });
    assert.deepEqual(filter.flush(), { text: '', reasoning: '' });
  });
});
