import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GuardrailError } from '../../../lib/core/errors/guardrail-error.js';
import { FormatGuardrail } from '../../../lib/safety/guardrails/format-guardrail.js';
import { Guardrail, type GuardrailFinding } from '../../../lib/safety/guardrails/guardrail.js';
import { GuardrailsPipeline, type GuardrailTrigger } from '../../../lib/safety/guardrails/guardrails-pipeline.js';
import { LengthGuardrail } from '../../../lib/safety/guardrails/length-guardrail.js';
import { PIIGuardrail } from '../../../lib/safety/guardrails/pii-guardrail.js';
import { TopicGuardrail } from '../../../lib/safety/guardrails/topic-guardrail.js';
import { ToxicityGuardrail } from '../../../lib/safety/guardrails/toxicity-guardrail.js';

/** Records what it saw; fails on `needle`. */
class Spy extends Guardrail {
  seen: string[] = [];
  constructor(private readonly needle: string, action: 'block' | 'rewrite' | 'warn') {
    super('spy', { action, name: `spy-${action}` });
  }
  protected evaluate(text: string): GuardrailFinding | undefined {
    this.seen.push(text);
    return text.includes(this.needle) ? { reasons: [`has ${this.needle}`], rewritten: text.replaceAll(this.needle, 'X') } : undefined;
  }
}

describe('GuardrailsPipeline', () => {
  test('a rewrite is what later guardrails see; warn reports and keeps the content', async () => {
    const first = new PIIGuardrail({ action: 'rewrite' });
    const warn = new Spy('[EMAIL]', 'warn');
    const after = new Spy('nothing', 'block');
    const triggers: GuardrailTrigger[] = [];
    const pipeline = new GuardrailsPipeline({ input: [first, warn, after] });
    const out = await pipeline.checkInput('write to bo@example.com', (t) => void triggers.push(t));
    assert.equal(out, 'write to [EMAIL]');
    assert.deepEqual(warn.seen, ['write to [EMAIL]']);
    assert.deepEqual(after.seen, ['write to [EMAIL]']);
    assert.deepEqual(triggers.map((t) => [t.guardrail, t.action, t.stage]), [['pii', 'rewrite', 'input'], ['spy-warn', 'warn', 'input']]);
    assert.deepEqual(triggers[0]!.matches, ['[EMAIL]']);
    assert.doesNotMatch(JSON.stringify(triggers), /bo@example/);
  });

  test('block reports, then throws GuardrailError with the stage; later guardrails do not run', async () => {
    const later = new Spy('x', 'warn');
    const pipeline = new GuardrailsPipeline({ output: [new TopicGuardrail({ keywords: ['weapons'] }), later] });
    const triggers: GuardrailTrigger[] = [];
    await assert.rejects(pipeline.checkOutput('about Weapons.', (t) => void triggers.push(t)), (error: unknown) => {
      assert.ok(GuardrailError.isInstance(error));
      assert.equal(error.stage, 'output');
      assert.equal(error.guardrail, 'topic');
      return true;
    });
    assert.equal(triggers.length, 1);
    assert.deepEqual(later.seen, []);
  });

  test('rewrite on tool arguments is refused at construction', () => {
    assert.throws(() => new GuardrailsPipeline({ toolArguments: [new PIIGuardrail({ action: 'rewrite' })] }), /tool arguments/);
  });

  test('a rewrite a guardrail cannot perform blocks instead', async () => {
    const result = await new LengthGuardrail({ minChars: 10, action: 'rewrite' }).check('short');
    assert.equal(result.action, 'block');
  });
});

describe('TopicGuardrail', () => {
  const topic = new TopicGuardrail({ keywords: ['weapons', 'gun', 'credit repair'], action: 'rewrite' });
  test('whole words, case-insensitive; not inside other words', async () => {
    assert.equal((await topic.check('They begun the gunnery Shotgun drill')).passed, true);
    assert.equal((await topic.check('Buy a GUN now')).passed, false);
    assert.equal((await topic.check('about credit\n repair offers')).passed, false);
  });
  test('NFKC, zero-width characters and look-alike letters do not hide a keyword; rewrite replaces the original span', async () => {
    for (const hidden of ['ｗｅａｐｏｎｓ', 'wea\u200bpons', 'wеapоns' /* Cyrillic е and о */, 'we\u202eapons']) {
      const result = await topic.check(`list ${hidden} here`);
      assert.equal(result.passed, false, hidden);
      assert.equal(result.content, 'list [REDACTED] here', hidden);
    }
  });
});

describe('ToxicityGuardrail', () => {
  test('REFERENCE §3: a single toxic word in a long message trips the default threshold', async () => {
    const text = 'Honestly I read your whole report twice over the weekend and you are an idiot about the numbers in section four';
    assert.equal((await new ToxicityGuardrail().check(text)).passed, false);
  });
  test('the score grows with hits; a higher threshold needs more; a severe term trips at once', async () => {
    const strict = new ToxicityGuardrail({ threshold: 0.8 });
    assert.equal(strict.score('you idiot').score, 0.5);
    assert.equal((await strict.check('you idiot')).passed, true);
    assert.equal((await strict.check('you stupid idiot, shut up')).passed, false);
    assert.equal((await strict.check('just go die')).passed, false);
    assert.equal((await strict.check('the idiom is fine')).passed, true);
  });
  test('rewrite masks the terms; custom blocklist', async () => {
    const g = new ToxicityGuardrail({ blocklist: ['numpty'], action: 'rewrite' });
    assert.equal((await g.check('what a Numpty')).content, 'what a ******');
  });
});

describe('FormatGuardrail and LengthGuardrail', () => {
  test('JSON, required keys, max length', async () => {
    const g = new FormatGuardrail({ requiredKeys: ['answer'] });
    assert.equal((await g.check('{"answer": 1}')).passed, true);
    assert.deepEqual((await g.check('{"other": 1}')).reasons, ['missing keys: answer']);
    assert.deepEqual((await g.check('nope')).reasons, ['not valid JSON']);
    assert.equal((await new FormatGuardrail({ maxLength: 3 }).check('abcd')).passed, false);
  });
  test('rewrite unwraps fenced JSON', async () => {
    const result = await new FormatGuardrail({ json: true, action: 'rewrite' }).check('```json\n{"a": 1}\n```');
    assert.equal(result.action, 'rewrite');
    assert.equal(result.content, '{"a": 1}');
  });
  test('length: rewrite truncates at a word boundary (chars and words)', async () => {
    assert.equal((await new LengthGuardrail({ maxChars: 12, action: 'rewrite' }).check('hello brave new world')).content, 'hello brave');
    assert.equal((await new LengthGuardrail({ maxWords: 2, action: 'rewrite' }).check('one two three four')).content, 'one two');
    assert.deepEqual((await new LengthGuardrail({ minWords: 3 }).check('one two')).reasons, ['fewer than 3 words (2)']);
  });
});
