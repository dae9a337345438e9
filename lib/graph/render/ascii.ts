import type { GraphDefinition } from '../node-spec.js';
import { graphToLayoutMermaid } from './layout-mermaid.js';

/** Options of `visualize('ascii')`. */
export interface AsciiOptions {
  /** `unicode` (default) draws with box-drawing characters (┌─┐ ▼), `ascii` with `+ - | v` only. */
  charset?: 'unicode' | 'ascii';
  /** `compact` draws boxes three rows high with one row between them (a live terminal view); default `normal`. */
  spacing?: 'normal' | 'compact';
}

interface BeautifulMermaid {
  renderMermaidASCII(this: void, text: string, options: { useAscii: boolean; colorMode: 'none'; paddingX: number; paddingY: number; boxBorderPadding: number }): string;
}

/**
 * The graph drawn with boxes and arrows, for a terminal: {@link graphToLayoutMermaid} laid out by
 * beautiful-mermaid's ASCII renderer (loaded on first use; it is not needed at import time).
 * Plain text (no colours); lines end without trailing blanks.
 */
export async function graphToAscii(def: GraphDefinition, options: AsciiOptions = {}): Promise<string> {
  const { renderMermaidASCII } = (await import('beautiful-mermaid')) as BeautifulMermaid;
  const text = renderMermaidASCII(graphToLayoutMermaid(def, options), {
    useAscii: options.charset === 'ascii',
    colorMode: 'none',
    ...(options.spacing === 'compact' ? { paddingX: 3, paddingY: 1, boxBorderPadding: 0 } : { paddingX: 4, paddingY: 3, boxBorderPadding: 1 }),
  });
  const lines = text.split('\n').map((line) => line.trimEnd());
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  while (lines.length > 0 && lines[0] === '') lines.shift();
  return `${lines.join('\n')}\n`;
}
