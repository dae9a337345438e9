import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SseDecoder, type SseEvent } from '../../../lib/providers/sse-decoder.js';

/** Feeds the pieces to a new decoder, taking the events after each, and returns them all (after `end()`). */
function decode(...pieces: string[]): SseEvent[] {
  const decoder = new SseDecoder();
  const out: SseEvent[] = [];
  for (const piece of pieces) {
    decoder.feed(piece);
    for (let event = decoder.next(); event !== undefined; event = decoder.next()) out.push(event);
  }
  decoder.end();
  return out;
}

const data = (text: string, event: string | null = null): SseEvent => ({ event, data: text });

describe('SseDecoder', () => {
  test('data lines dispatch on a blank line; LF, CRLF and CR line ends alike', () => {
    const expected = [data('{"a":1}'), data('{"b":2}')];
    assert.deepEqual(decode('data: {"a":1}\n\ndata: {"b":2}\n\n'), expected);
    assert.deepEqual(decode('data: {"a":1}\r\n\r\ndata: {"b":2}\r\n\r\n'), expected);
    assert.deepEqual(decode('data: {"a":1}\r\rdata: {"b":2}\r\r'), expected);
    assert.deepEqual(decode('data: {"a":1}\r\n\ndata: {"b":2}\n\r\n'), expected, 'mixed line ends');
  });

  test('any split of the stream into pieces gives the same events (CRLF split across pieces included)', () => {
    const stream = 'event: message_start\r\ndata: {"x":"é🌍"}\r\n\r\n: keep-alive\r\n\r\ndata: line one\ndata: line two\n\nid: 7\nretry: 10\ndata:no-space\r\rdata: [DONE]\r\n\r\n';
    const expected = [data('{"x":"é🌍"}', 'message_start'), data('line one\nline two'), data('no-space'), data('[DONE]')];
    assert.deepEqual(decode(stream), expected);
    for (let cut = 1; cut < stream.length; cut++) {
      assert.deepEqual(decode(stream.slice(0, cut), stream.slice(cut)), expected, `split at ${cut}`);
    }
    assert.deepEqual(decode(...stream), expected, 'one character at a time');
    // CR at the end of a piece, LF at the start of the next: one line end, not a blank line —
    // also with an empty piece (an empty network read) in between.
    assert.deepEqual(decode('data: a\r', '\ndata: b\r\n', '\r\n'), [data('a\nb')]);
    assert.deepEqual(decode('data: a\r', '', '\ndata: b\r\n', '', '\r\n'), [data('a\nb')]);
  });

  test('comments, id, retry and unknown fields are ignored; one space after the colon is removed, no more', () => {
    assert.deepEqual(decode(': comment\nfoo: bar\nid: 1\nretry: 5\ndata:  two spaces\n\n'), [data(' two spaces')]);
    assert.deepEqual(decode(':\n\n'), [], 'a comment alone is no event');
  });

  test('a field without a colon is the field name with an empty value; empty data lines count', () => {
    assert.deepEqual(decode('data\n\n'), [data('')]);
    assert.deepEqual(decode('data\ndata\n\n'), [data('\n')]);
    assert.deepEqual(decode('data: a\ndata\ndata: b\n\n'), [data('a\n\nb')]);
  });

  test('the event type belongs to one event; an event without data is dropped', () => {
    assert.deepEqual(decode('event: ping\n\ndata: x\n\n'), [data('x')], 'the type does not carry over a dataless event');
    assert.deepEqual(decode('event: a\ndata: 1\n\ndata: 2\n\n'), [data('1', 'a'), data('2')]);
    assert.deepEqual(decode('event: a\nevent: b\ndata: 1\n\n'), [data('1', 'b')], 'the last event line wins');
  });

  test('an event not closed by a blank line at the end is dropped, also after end() on a reused decoder', () => {
    assert.deepEqual(decode('data: 1\n\ndata: 2\n'), [data('1')]);
    assert.deepEqual(decode('data: 1\n\ndata: 2'), [data('1')]);
    const decoder = new SseDecoder();
    decoder.feed('data: cut');
    assert.equal(decoder.next(), undefined);
    decoder.end();
    decoder.feed('\n\ndata: fresh\n\n');
    assert.deepEqual(decoder.next(), data('fresh'), 'nothing of the dropped event survives end()');
    assert.equal(decoder.next(), undefined);
  });

  test('next() parses only up to the next event; text fed before the events are taken is kept whole', () => {
    const decoder = new SseDecoder();
    decoder.feed('data: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4');
    assert.deepEqual(decoder.next(), data('1'));
    // Fed while "2" and "3" are still waiting, and while "4" is an unterminated line.
    decoder.feed('\n\ndata: 5\r');
    decoder.feed('\n\r\n');
    const rest: SseEvent[] = [];
    for (let event = decoder.next(); event !== undefined; event = decoder.next()) rest.push(event);
    assert.deepEqual(rest, [data('2'), data('3'), data('4'), data('5')]);
    // An unterminated line, then more of it, then its end.
    decoder.feed('data: a');
    assert.equal(decoder.next(), undefined);
    decoder.feed('bc\nda');
    assert.equal(decoder.next(), undefined);
    decoder.feed('ta: d\n\n');
    assert.deepEqual(decoder.next(), data('abc\nd'));
  });

  test('a long line arriving in many small pieces is whole', () => {
    const long = 'x'.repeat(200_000);
    const stream = `data: ${long}\n\n`;
    const pieces: string[] = [];
    for (let i = 0; i < stream.length; i += 997) pieces.push(stream.slice(i, i + 997));
    assert.deepEqual(decode(...pieces), [data(long)]);
  });
});
