import { ConfigurationError } from '../../core/errors/configuration-error.js';
import type { Document, Metadata } from '../document.js';
import { safeFetch, type SafeFetchOptions } from '../web/safe-fetch.js';
import { pdfPages } from './pdf-loader.js';
import { htmlDocument } from './text-loaders.js';

/** Options of {@link loadUrl}: those of the SSRF-safe fetch, plus extra metadata. */
export interface UrlLoadOptions extends SafeFetchOptions {
  metadata?: Metadata;
}

/**
 * A web page as documents, fetched with the SSRF-safe fetch (public addresses only unless
 * `allowPrivate`, every redirect checked, size and time limits): HTML becomes readable text with
 * its title, PDF one document per page, text formats stay as they are. `source` is the final URL.
 * An HTTP error status or a binary type is a ConfigurationError.
 */
export async function loadUrl(url: string, options: UrlLoadOptions = {}): Promise<Document[]> {
  const { metadata: extra, ...fetchOptions } = options;
  const response = await safeFetch(url, fetchOptions);
  if (response.status >= 400) throw new ConfigurationError(`fetching ${response.url} gave HTTP ${response.status}`, { key: 'url' });
  const metadata: Metadata = { ...extra, source: response.url, type: 'url', contentType: response.contentType };
  if (response.truncated) metadata['truncated'] = true;
  if (response.contentType === 'application/pdf') {
    const { pages, title } = await pdfPages(new Uint8Array(response.body));
    return pages.flatMap((text, i) => (text === '' ? [] : [{ text, metadata: { ...metadata, page: i + 1, pages: pages.length, ...(title ? { title } : {}) } }]));
  }
  const charset = (response.charset ?? 'utf-8').toLowerCase();
  let text: string;
  try {
    text = new TextDecoder(charset).decode(response.body);
  } catch {
    text = new TextDecoder('utf-8').decode(response.body);
  }
  const isHtml = response.contentType.includes('html') || (response.contentType === '' && /^\s*<(?:!doctype html|html)\b/i.test(text));
  if (isHtml) return [htmlDocument(text, metadata)];
  const textual = response.contentType === '' || response.contentType.startsWith('text/') || /json|xml|yaml|markdown/.test(response.contentType);
  if (!textual || (response.contentType === '' && response.body.subarray(0, 8000).includes(0))) {
    throw new ConfigurationError(`${response.url} is ${response.contentType || 'binary data'}, not text, HTML or PDF`, { key: 'url' });
  }
  return [{ text, metadata }];
}
