import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CacheKeyBuilder, negationCount, roleTokens, SemanticCache, salientTokens, swapsRoles } from '../../../lib/cache/index.js';
import { userMessage } from '../../../lib/core/message.js';
import type { EmbedRequest, EmbedResponse } from '../../../lib/providers/spec.js';

/** Every text embeds to the same vector: similarity 1, so only the safeguards decide. */
const sameVector = { embed: async (request: EmbedRequest): Promise<EmbedResponse> => ({ embeddings: request.texts.map(() => [1, 0]), usage: { tokens: 1 }, model: 'flat' }) };
const hint = (text: string) => CacheKeyBuilder.responseHint({ model: 'm', system: 'S', messages: [userMessage(text)] });
const key = (text: string) => CacheKeyBuilder.response({ model: 'm', system: 'S', messages: [userMessage(text)] });
const roles = (a: string, b: string) => swapsRoles(roleTokens(a), roleTokens(b));

/** Stores `stored`, then looks up `asked` at similarity 1: the cached answer, or undefined when a safeguard refused it. */
async function lookup(stored: string, asked: string, options: ConstructorParameters<typeof SemanticCache>[1] = {}): Promise<unknown> {
  const cache = new SemanticCache(sameVector, options);
  await cache.set(key(stored), 'answer', undefined, hint(stored));
  return cache.get(key(asked), hint(asked));
}

describe('SemanticCache safeguards beyond similarity', () => {
  test('swapsRoles: the same words in roles swapped (direction, subject/object, comparison) are another question', () => {
    assert.ok(roles('Flights from London to Paris', 'Flights from Paris to London'));
    assert.ok(roles('Convert 5 kilograms to pounds', 'Convert 5 pounds to kilograms'));
    assert.ok(roles('Did Brazil beat Germany?', 'Did Germany beat Brazil?'));
    assert.ok(roles('Is a square a rectangle?', 'Is a rectangle a square?'));
    assert.ok(roles('Is Mercury closer to the Sun than Venus?', 'Is Venus closer to the Sun than Mercury?'));
    assert.ok(roles('What is 15% of 80?', 'What is 80% of 15?'), 'numbers are words with roles too');
    assert.ok(roles('cheap flights from Paris to London', 'Flights from London to Paris'), 'an added word does not hide a swap');
  });

  test('swapsRoles: conjuncts, a phrase moved with its preposition, added words, relation words only one side has, particles and repeats keep the roles', () => {
    assert.ok(!roles('Which is bigger, a lion or a tiger?', 'Which is bigger, a tiger or a lion?'));
    assert.ok(!roles('What is the difference between TCP and UDP?', 'What is the difference between UDP and TCP?'));
    assert.ok(!roles('What is the boiling point of water at sea level?', 'At sea level, what is the boiling point of water?'));
    assert.ok(!roles('How do I add a user to my team?', 'How can I add a new user to my team?'));
    assert.ok(!roles('Can I change my username?', 'Is it possible to change my username?'));
    assert.ok(!roles('What is the chemical symbol for gold?', 'what is the chemical symbol of gold'));
    assert.ok(!roles('How do I turn off notifications?', 'How can I turn notifications off?'));
    assert.ok(!roles('Who painted the Mona Lisa?', 'Who painted the Mona Lisa painting?'));
    assert.ok(!roles('How do I reset my password?', 'How can I reset my password?'));
    assert.ok(!roles('Paris', 'Paris'), 'fewer than two shared words have no order');
  });

  test('a role swap misses even at similarity 1; refuseRoleSwaps: false serves it', async () => {
    assert.equal(await lookup('Flights from London to Paris', 'Flights from Paris to London'), undefined);
    assert.equal(await lookup('Which is bigger, a lion or a tiger?', 'Which is bigger, a tiger or a lion?'), 'answer');
    assert.equal(await lookup('Flights from London to Paris', 'Flights from Paris to London', { refuseRoleSwaps: false }), 'answer');
    const cache = new SemanticCache(sameVector);
    await cache.set(key('Did Brazil beat Germany?'), 'answer', undefined, hint('Did Brazil beat Germany?'));
    const match = await cache.nearest('Did Germany beat Brazil?', hint('x').scope ?? '');
    assert.equal(match?.roleSwap, true);
    assert.equal(match?.wordSwap, false, 'the word-swap check alone cannot see it');
  });

  test('negationCount: not, no, never, without, cannot and n\'t contractions', () => {
    assert.equal(negationCount('Which plans include phone support?'), 0);
    assert.equal(negationCount('Which plans do not include phone support?'), 1);
    assert.equal(negationCount("Why can't I log in?"), 1);
    assert.equal(negationCount('Why can’t I log in?'), 1);
    assert.equal(negationCount('Which apps cannot run offline?'), 1);
    assert.equal(negationCount("It won't start and I have never changed it"), 2);
    assert.equal(negationCount('Can I pay without a card?'), 1);
    assert.equal(negationCount('Is there no way to know?'), 1);
  });

  test('a question with another count of negations misses; matchNegations: false serves it', async () => {
    assert.equal(await lookup('Which plans include phone support?', 'Which plans do not include phone support?'), undefined);
    assert.equal(await lookup('Show me orders that were shipped', 'Show me orders that were never shipped'), undefined);
    assert.equal(await lookup('Which plans do not include phone support?', "Which plans don't include phone support?"), 'answer', 'the same negation spelt another way');
    assert.equal(await lookup('Which plans include phone support?', 'Which plans do not include phone support?', { matchNegations: false }), 'answer');
  });

  test('salientTokens: numbers written as words count as numbers ("one" is a pronoun)', () => {
    assert.deepEqual(salientTokens('a table for two people'), ['2']);
    assert.deepEqual(salientTokens('a table for 2 people'), salientTokens('A table for two people'));
    assert.notDeepEqual(salientTokens('a table for two people'), salientTokens('a table for four people'));
    assert.deepEqual(salientTokens('which one is cheaper'), []);
  });

  test('salientTokens: dates relative to now are salient like dates', () => {
    assert.deepEqual(salientTokens('Who won the Super Bowl last year?'), ['@last year', 'bowl', 'super']);
    assert.notDeepEqual(salientTokens('Who won the Super Bowl last year?'), salientTokens('Who won the Super Bowl this year?'));
    assert.notDeepEqual(salientTokens('weather forecast for today'), salientTokens('weather forecast for tomorrow'));
    assert.deepEqual(salientTokens('sales of the last two weeks'), ['2'], '"last two weeks": the number is what is salient');
  });

  test('the cache refuses a number word or a relative date that differs', async () => {
    assert.equal(await lookup('Book a table for two people', 'Book a table for four people', { refuseWordSwaps: false }), undefined);
    assert.equal(await lookup('Book a table for two people', 'Book a table for 2 people'), 'answer');
    assert.equal(await lookup('Who won the Super Bowl last year?', 'Who won the Super Bowl this year?'), undefined);
  });
});
