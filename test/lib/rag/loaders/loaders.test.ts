import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigurationError } from '../../../../lib/core/errors/configuration-error.js';
import { UrlRefusedError } from '../../../../lib/core/errors/url-refused-error.js';
import { loadCsv, parseCsv } from '../../../../lib/rag/loaders/csv-loader.js';
import { listDirectory, loadDirectory } from '../../../../lib/rag/loaders/directory-loader.js';
import { loadJson, loadJsonl } from '../../../../lib/rag/loaders/json-loader.js';
import { loadFile } from '../../../../lib/rag/loaders/load-file.js';
import { loadPdf } from '../../../../lib/rag/loaders/pdf-loader.js';
import { loadHtml, loadMarkdown, loadText } from '../../../../lib/rag/loaders/text-loaders.js';
import { loadUrl } from '../../../../lib/rag/loaders/url-loader.js';
import { makePdf } from './make-pdf.js';

let dir: string;
const file = (name: string, content: string | Buffer): string => {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
};

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentlib-rag-loaders-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('file loaders', () => {
  test('text and Markdown (front matter into metadata, title from it or the first heading)', async () => {
    const txt = file('a.txt', 'plain words\n');
    assert.deepEqual(await loadText(txt, { source: 'a.txt' }), [{ text: 'plain words\n', metadata: { source: 'a.txt', type: 'text' } }]);
    const md = file('b.md', '---\ntitle: Leave policy\ntags: [hr, leave]\nnested: {a: 1}\n---\n# Heading\n\nBody text.\n');
    const [doc] = await loadMarkdown(md, { source: 'b.md' });
    assert.equal(doc?.text, '# Heading\n\nBody text.\n');
    assert.deepEqual(doc?.metadata, { title: 'Leave policy', tags: ['hr', 'leave'], source: 'b.md', type: 'markdown' });
    const [plain] = await loadMarkdown(file('c.md', 'intro\n# The Title\ntext'));
    assert.equal(plain?.metadata['title'], 'The Title');
  });

  test('HTML: readable text and title', async () => {
    const [doc] = await loadHtml(file('p.html', '<html><head><title>T &amp; C</title><script>x()</script></head><body><h1>Hi</h1><p>Para</p></body></html>'));
    assert.equal(doc?.text, 'Hi\n\nPara');
    assert.equal(doc?.metadata['title'], 'T & C');
  });

  test('CSV: a row per document, a column as text and the rest as metadata, RFC 4180 quoting', async () => {
    assert.deepEqual(parseCsv('a,b\r\n"x, ""y""","line\nbreak"\n'), [['a', 'b'], ['x, "y"', 'line\nbreak']]);
    const path = file('faq.csv', 'question,answer,lang\n"How long?","Five days, usually.",en\nWie?,Fünf Tage,de\n');
    const rows = await loadCsv(path, { textColumn: 'answer', source: 'faq.csv' });
    assert.deepEqual(rows, [
      { text: 'Five days, usually.', metadata: { source: 'faq.csv', type: 'csv', row: 1, question: 'How long?', lang: 'en' } },
      { text: 'Fünf Tage', metadata: { source: 'faq.csv', type: 'csv', row: 2, question: 'Wie?', lang: 'de' } },
    ]);
    assert.equal((await loadCsv(path))[0]?.text, 'question: How long?\nanswer: Five days, usually.\nlang: en');
    await assert.rejects(loadCsv(path, { textColumn: 'nope' }), ConfigurationError);
  });

  test('JSON and JSONL: a path to the text, records path, metadata paths; a missing text is an error', async () => {
    const json = file('d.json', JSON.stringify({ data: { items: [{ body: { text: 'one' }, id: 7 }, { body: { text: 'two' }, id: 8 }] } }));
    const docs = await loadJson(json, { recordsPath: 'data.items', textPath: 'body.text', metadataPaths: ['id'], source: 'd.json' });
    assert.deepEqual(docs.map((d) => [d.text, d.metadata['id'], d.metadata['record']]), [['one', 7, 0], ['two', 8, 1]]);
    await assert.rejects(loadJson(json, { recordsPath: 'data.items' }), /record 0 has no string at "text"/);
    const jsonl = file('e.jsonl', '{"text":"first"}\n\n{"text":"second","k":1}\n');
    assert.deepEqual((await loadJsonl(jsonl)).map((d) => [d.text, d.metadata['line']]), [['first', 1], ['second', 3]]);
    await assert.rejects(loadJsonl(file('bad.jsonl', '{"text":"ok"}\n{oops\n')), /bad\.jsonl:2: not valid JSON/);
  });

  test('PDF: one document per page with page numbers and the title', async () => {
    const path = file('guide.pdf', makePdf(['Refunds take five days.\nSecond line.', '', 'Page three: shipping.'], 'Store Guide'));
    const pages = await loadPdf(path, { source: 'guide.pdf' });
    assert.deepEqual(pages.map((p) => [p.metadata['page'], p.text]), [[1, 'Refunds take five days.\nSecond line.'], [3, 'Page three: shipping.']]);
    assert.deepEqual(pages[0]?.metadata, { source: 'guide.pdf', type: 'pdf', page: 1, pages: 3, title: 'Store Guide' });
  });

  test('loadFile picks the loader by extension and refuses unknown ones', async () => {
    assert.equal((await loadFile(file('x.TXT', 'upper')))[0]?.text, 'upper');
    assert.throws(() => loadFile(file('x.bin', 'zz')), ConfigurationError);
  });
});

describe('loadDirectory', () => {
  test('globs, exclude, .gitignore / .ragignore (with negation and folders), hidden files; source is the relative path', async () => {
    const root = join(dir, 'kb');
    const put = (name: string, content = `content of ${name}`): void => {
      mkdirSync(join(root, name, '..'), { recursive: true });
      writeFileSync(join(root, name), content);
    };
    put('a.md');
    put('b.txt');
    put('skip.json', '[]');
    put('guides/setup.md');
    put('guides/draft-x.md');
    put('guides/keep-draft.md');
    put('build/out.md');
    put('.hidden.md');
    put('notes/secret.md');
    put('.gitignore', 'build/\n*.log\n');
    put('.ragignore', '# comment\ndraft-*.md\n/notes\n');
    put('guides/.ragignore', '!keep-draft.md\nkeep-*.md\n!keep-draft.md\n');
    assert.deepEqual(await listDirectory(root), ['a.md', 'b.txt', 'guides/keep-draft.md', 'guides/setup.md']);
    assert.deepEqual(await listDirectory(root, { include: ['**/*.md'], exclude: ['guides/setup.md'] }), ['a.md', 'guides/keep-draft.md']);
    const docs = await loadDirectory(root, { include: ['*.md'] });
    assert.deepEqual(docs.map((d) => d.metadata['source']), ['a.md', 'guides/keep-draft.md', 'guides/setup.md']);
    assert.equal(docs[0]?.text, 'content of a.md');
  });
});

describe('loadUrl', () => {
  let server: Server;
  let origin: string;
  before(async () => {
    server = createServer((req, res) => {
      if (req.url === '/page') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html><head><title>Docs</title></head><body><p>Hello <b>web</b></p></body></html>');
      else if (req.url === '/text') res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      else if (req.url === '/pdf') res.writeHead(200, { 'content-type': 'application/pdf' }).end(makePdf(['PDF over HTTP']));
      else if (req.url === '/bin') res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50]));
      else res.writeHead(404).end('nope');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('HTML, text with its charset and PDF through the SSRF-safe fetch; source is the URL', async () => {
    const allow = { allowPrivate: ['127.0.0.1'] };
    const [page] = await loadUrl(`${origin}/page`, allow);
    assert.deepEqual(page, { text: 'Hello web', metadata: { source: `${origin}/page`, type: 'url', contentType: 'text/html', title: 'Docs' } });
    assert.equal((await loadUrl(`${origin}/text`, allow))[0]?.text, 'café');
    assert.deepEqual((await loadUrl(`${origin}/pdf`, allow)).map((d) => [d.text, d.metadata['page']]), [['PDF over HTTP', 1]]);
    await assert.rejects(loadUrl(`${origin}/bin`, allow), /image\/png, not text/);
    await assert.rejects(loadUrl(`${origin}/missing`, allow), /HTTP 404/);
  });

  test('private addresses are refused by default', async () => {
    await assert.rejects(loadUrl(`${origin}/page`), (error: unknown) => UrlRefusedError.isInstance(error));
  });
});
