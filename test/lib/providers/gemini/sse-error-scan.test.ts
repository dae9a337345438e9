import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SseErrorScanner, type GoogleErrorBody } from '../../../../lib/providers/gemini/sse-error-scan.js';

const chunk = (body: unknown, newline = '\r\n'): string => `data: ${JSON.stringify(body)}${newline}${newline}`;
const TEXT = chunk({ candidates: [{ content: { role: 'model', parts: [{ text: 'partial "error" answer' }] } }] });
const CALL = chunk({ candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'log', args: { error: 'error', '"error"': 1 } } }] } }] });
const FINAL = chunk({ candidates: [{ content: { role: 'model', parts: [{ text: '.' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 3, totalTokenCount: 5 } });
const ERROR: GoogleErrorBody = { code: 400, message: 'Request contains an invalid argument.', status: 'INVALID_ARGUMENT' };

/** Scans `text` cut into the given chunks: the bytes passed on and the error found. */
function scan(pieces: readonly Uint8Array[]): { passed: string; error: GoogleErrorBody | undefined } {
  const scanner = new SseErrorScanner();
  const out: Uint8Array[] = [];
  let error: GoogleErrorBody | undefined;
  for (const piece of [...pieces, undefined]) {
    const step = piece === undefined ? scanner.end() : scanner.push(piece);
    out.push(...step.forward);
    if (step.error) {
      assert.equal(error, undefined, 'one error at most');
      error = step.error;
    }
  }
  return { passed: Buffer.concat(out).toString('utf8'), error };
}

/** `text` cut at each of `cuts`. */
function cut(text: string, ...cuts: number[]): Uint8Array[] {
  const bytes = Buffer.from(text);
  const at = [0, ...cuts, bytes.length];
  return at.slice(1).map((end, i) => new Uint8Array(bytes.subarray(at[i], end)));
}

/** Every way of cutting `text` in two, plus byte by byte. */
function everySplit(text: string): Uint8Array[][] {
  const length = Buffer.byteLength(text);
  return [...Array.from({ length: length + 1 }, (_, i) => cut(text, i)), cut(text, ...Array.from({ length: length - 1 }, (_, i) => i + 1))];
}

describe('SseErrorScanner', () => {
  test('a stream without an error event passes on byte for byte, however it is cut', () => {
    const body = TEXT + CALL + FINAL + ': a comment\n\nevent: x\ndata: {"candidates": []}\n\n';
    for (const pieces of everySplit(body)) assert.deepEqual(scan(pieces), { passed: body, error: undefined });
  });

  test('a chunk of whole lines goes on as one uncopied piece', () => {
    const scanner = new SseErrorScanner();
    for (const piece of [TEXT, CALL + FINAL]) {
      const bytes = new Uint8Array(Buffer.from(piece));
      const { forward, error } = scanner.push(bytes);
      assert.equal(error, undefined);
      assert.equal(forward.length, 1);
      assert.equal(forward[0]!.buffer, bytes.buffer, 'a view of the chunk, not a copy');
      assert.equal(forward[0]!.length, bytes.length);
    }
  });

  for (const [name, event] of [
    ['data: framing, CRLF', chunk({ error: ERROR })],
    ['data: framing, LF', chunk({ error: ERROR }, '\n')],
    ['data: without a space, spaces inside the object', `data:{ "error" : ${JSON.stringify(ERROR)}}\r\n\r\n`],
    ['a bare JSON line', `${JSON.stringify({ error: ERROR })}\n`],
  ] as const) {
    test(`an error event (${name}) is found wherever the body is cut; the bytes before it pass on, never the event`, () => {
      const body = TEXT + CALL + event + FINAL;
      for (const pieces of everySplit(body)) {
        const { passed, error } = scan(pieces);
        assert.deepEqual(error, ERROR);
        assert.equal(passed, TEXT + CALL);
      }
    });
  }

  test('an error event at the very end without its blank line, or without any newline, is still found', () => {
    for (const event of [`data: ${JSON.stringify({ error: ERROR })}\r\n`, `data: ${JSON.stringify({ error: ERROR })}`, JSON.stringify({ error: ERROR })]) {
      for (const pieces of everySplit(TEXT + event)) assert.deepEqual(scan(pieces), { passed: TEXT, error: ERROR });
    }
  });

  test('an event that starts like an error but is not an error object goes on unchanged (the SDK fails on it)', () => {
    for (const event of ['data: {"error": {"code": 503, "message": \r\n\r\n', 'data: {"error": "a string"}\r\n\r\n', 'data: {"errors": {}}\r\n\r\n']) {
      const body = TEXT + event + FINAL;
      for (const pieces of everySplit(body)) assert.deepEqual(scan(pieces), { passed: body, error: undefined });
    }
  });
});
