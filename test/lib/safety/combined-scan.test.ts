import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { combinedScan, lowerCaseSource, lowerCaseTwin, topLevelAlternatives } from '../../../lib/safety/screening/combined-scan.js';
import { BUILT_IN_INJECTION_PATTERNS } from '../../../lib/safety/screening/injection-patterns.js';
import { safetyCorpora } from '../../support/safety-corpus.js';

const corpora = safetyCorpora();
/** Every labelled text, plus the injections glued into benign text and shouted in capitals. */
const texts = [
  ...corpora.injections.map((s) => s.text),
  ...corpora.benign.map((s) => s.text),
  ...corpora.injections.slice(0, 40).map((s, i) => `${corpora.benign[i % corpora.benign.length]!.text}\n${s.text.toUpperCase()} ok`),
];

function matches(regex: RegExp, text: string): [number, number][] {
  return [...text.matchAll(new RegExp(regex.source, regex.flags))].map((m) => [m.index, m.index + m[0].length]);
}

describe('the combined scan of the built-in injection patterns', () => {
  test('lowerCaseSource lower-cases literals and keeps escapes', () => {
    assert.equal(lowerCaseSource('\\bDAN\\s+\\S+[A-Z]\\W'), '\\bdan\\s+\\S+[a-z]\\W');
  });

  test('each built-in pattern without the i flag, over lower-cased text, finds exactly what the pattern finds', () => {
    for (const { name, regex } of BUILT_IN_INJECTION_PATTERNS) {
      const twin = lowerCaseTwin(regex);
      assert.equal(twin.flags.includes('i'), false);
      for (const text of texts) {
        const lower = text.normalize('NFKC').toLowerCase();
        if (lower.length !== text.normalize('NFKC').length) continue;
        assert.deepEqual(matches(twin, lower), matches(regex, text.normalize('NFKC')), `${name}: ${JSON.stringify(text.slice(0, 80))}`);
      }
    }
  });

  test('topLevelAlternatives splits outside groups and classes only', () => {
    assert.deepEqual(topLevelAlternatives('a|b(c|d)|[|x]e|\\|f'), ['a', 'b(c|d)', '[|x]e', '\\|f']);
    for (const { regex } of BUILT_IN_INJECTION_PATTERNS) {
      const alternatives = topLevelAlternatives(regex.source);
      assert.equal(alternatives.join('|'), regex.source);
      for (const alternative of alternatives) assert.doesNotThrow(() => new RegExp(alternative, regex.flags));
    }
  });

  test('the combined scan first matches where the first of the patterns matches, and nowhere on text without one', () => {
    const twins = BUILT_IN_INJECTION_PATTERNS.map((p) => lowerCaseTwin(p.regex));
    const scan = combinedScan(twins);
    let found = 0;
    for (const text of texts) {
      const lower = text.toLowerCase();
      const firsts = twins.map((t) => matches(t, lower)[0]?.[0]).filter((i): i is number => i !== undefined);
      scan.lastIndex = 0;
      const first = scan.exec(lower);
      assert.equal(first?.index, firsts.length === 0 ? undefined : Math.min(...firsts), JSON.stringify(text.slice(0, 80)));
      if (first !== null) found++;
    }
    assert.ok(found > 100, `the corpus has injections (${found})`);
  });
});
