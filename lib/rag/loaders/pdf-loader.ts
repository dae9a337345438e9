import { readFile } from 'node:fs/promises';
import type { Document } from '../document.js';
import { importOptional } from '../optional-module.js';
import { fileMetadata, type FileLoadOptions } from './text-loaders.js';

interface PdfTextItem {
  str?: string;
  hasEOL?: boolean;
}
interface PdfPage {
  getTextContent(): Promise<{ items: PdfTextItem[] }>;
  cleanup(): unknown;
}
interface PdfDocumentProxy {
  numPages: number;
  getPage(n: number): Promise<PdfPage>;
  getMetadata(): Promise<{ info?: Record<string, unknown> }>;
  destroy(): Promise<void>;
}
interface PdfJs {
  getDocument(options: Record<string, unknown>): { promise: Promise<PdfDocumentProxy> };
}

/** The text of PDF bytes, one entry per page (pdfjs-dist's legacy build for Node, loaded on first use). */
export async function pdfPages(data: Uint8Array): Promise<{ pages: string[]; title: string | undefined }> {
  const pdfjs = await importOptional<PdfJs>('pdfjs-dist/legacy/build/pdf.mjs', 'pdfjs-dist', 'loading PDF files');
  const document = await pdfjs.getDocument({ data, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= document.numPages; n++) {
      const page = await document.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        text += item.str ?? '';
        if (item.hasEOL) text += '\n';
      }
      pages.push(text.replace(/[ \t]+\n/g, '\n').trim());
      page.cleanup();
    }
    const title = (await document.getMetadata()).info?.['Title'];
    return { pages, title: typeof title === 'string' && title.trim() !== '' ? title.trim() : undefined };
  } finally {
    await document.destroy();
  }
}

/**
 * A PDF file, one document per page with text: metadata `page` (1-based), `pages`, and `title`
 * when the PDF has one. Needs the optional package pdfjs-dist.
 */
export async function loadPdf(path: string, options: FileLoadOptions = {}): Promise<Document[]> {
  const { pages, title } = await pdfPages(new Uint8Array(await readFile(path)));
  const out: Document[] = [];
  pages.forEach((text, index) => {
    if (text === '') return;
    const metadata = { ...fileMetadata(path, options, 'pdf'), page: index + 1, pages: pages.length };
    out.push({ text, metadata: title === undefined ? metadata : { ...metadata, title } });
  });
  return out;
}
