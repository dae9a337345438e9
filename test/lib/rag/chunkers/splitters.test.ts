import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigurationError } from '../../../../lib/core/errors/configuration-error.js';
import { RecursiveTextSplitter } from '../../../../lib/rag/chunkers/recursive-text-splitter.js';
import { TextSplitter } from '../../../../lib/rag/chunkers/text-splitter.js';
import type { Document } from '../../../../lib/rag/document.js';

const doc = (text: string): Document => ({ text, metadata: { source: 's.md' } });

function checkChunks(text: string, chunks: Document[], size: number): void {
  for (const chunk of chunks) {
    assert.ok(chunk.text.length <= size, `chunk of ${chunk.text.length} > ${size}`);
    const { start, end } = chunk.metadata as { start: number; end: number };
    assert.equal(text.slice(start, end), chunk.text, 'offsets point at the chunk');
    assert.equal(chunk.metadata['source'], 's.md');
  }
}

describe('TextSplitter', () => {
  test('defaults 1,000 / 200 on paragraphs; overlap shares the tail paragraph', () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} ${'x'.repeat(180)}`);
    const text = paragraphs.join('\n\n');
    const chunks = new TextSplitter().split([doc(text)]);
    checkChunks(text, chunks, 1000);
    assert.ok(chunks.length >= 3);
    // the next chunk starts with the last paragraph of the previous one (≤ 200 characters of overlap)
    const firstLast = chunks[0]?.text.split('\n\n').at(-1);
    assert.ok(chunks[1]?.text.startsWith(firstLast ?? '?'));
    assert.deepEqual(chunks.map((c) => c.metadata['chunk']), chunks.map((_, i) => i));
  });

  test('a piece longer than chunkSize is cut; bad sizes are refused', () => {
    const text = 'y'.repeat(2500);
    const chunks = new TextSplitter({ chunkSize: 1000, chunkOverlap: 0 }).split([doc(text)]);
    assert.deepEqual(chunks.map((c) => c.text.length), [1000, 1000, 500]);
    assert.deepEqual(new TextSplitter({ chunkSize: 1000, chunkOverlap: 200 }).split([doc(text)]).map((c) => c.metadata['start']), [0, 800, 1600]);
    assert.throws(() => new TextSplitter({ chunkSize: 100, chunkOverlap: 100 }), ConfigurationError);
    assert.throws(() => new TextSplitter({ chunkSize: 0 }), ConfigurationError);
  });
});

describe('RecursiveTextSplitter', () => {
  test('cuts at paragraphs, then lines, then words, and keeps offsets', () => {
    const text = `${'Alpha beta gamma. '.repeat(30)}\n\nShort paragraph.\nSecond line of it.\n\n${'word '.repeat(400)}`;
    const chunks = new RecursiveTextSplitter({ chunkSize: 200, chunkOverlap: 40 }).split([doc(text)]);
    checkChunks(text, chunks, 200);
    assert.ok(chunks.some((c) => c.text.includes('Short paragraph.\nSecond line of it.')), 'a small paragraph stays whole');
    assert.ok(chunks.every((c) => !/^\S*[a-z]\S*$/.test(c.text) || c.text.length < 200), 'words are not cut when spaces exist');
    const wordChunks = chunks.filter((c) => c.text.startsWith('word'));
    assert.ok(wordChunks.every((c) => /^(?:word ?)+$/.test(c.text)), 'no word cut in half');
  });

  test('pathological input ends: one huge word, only separators, 10 MB without a newline', () => {
    const splitter = new RecursiveTextSplitter();
    const huge = 'z'.repeat(5000);
    assert.deepEqual(splitter.split([doc(huge)]).map((c) => c.metadata['start']), [0, 800, 1600, 2400, 3200, 4000]);
    assert.ok(splitter.split([doc(huge)]).every((c) => c.text.length <= 1000));
    assert.deepEqual(splitter.split([doc('\n\n\n\n \n \n\n   '.repeat(1000))]), []);
    const big = 'lorem ipsum dolor sit amet '.repeat(400_000); // ≈ 10.8 MB, no newline
    const chunks = splitter.spans(big);
    assert.ok(chunks.length > 10_000);
    assert.equal(chunks[0]?.[0], 0);
    assert.equal(chunks.at(-1)?.[1], big.length);
    for (let i = 1; i < chunks.length; i++) assert.ok((chunks[i] as [number, number])[0] > (chunks[i - 1] as [number, number])[0], 'chunks advance');
    const noSpace = `${'q'.repeat(3_000_000)}`;
    assert.equal(splitter.spans(noSpace).length, Math.ceil((3_000_000 - 1000) / 800) + 1);
  });
});
