/** A minimal Markdown block parser for the chat: fenced code, headings, list items, paragraphs. */
export type MarkdownBlock =
  | { kind: 'code'; lang: string; lines: string[] }
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'item'; marker: string; indent: number; text: string }
  | { kind: 'quote'; text: string }
  | { kind: 'line'; text: string }
  | { kind: 'blank' };

/** An inline span: plain, **bold** or `code`. */
export interface InlineSpan {
  kind: 'plain' | 'bold' | 'code';
  text: string;
}

/** Splits text into blocks (an unclosed fence, while streaming, runs to the end). */
export function parseMarkdown(text: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const fence = /^\s*(```|~~~)\s*([\w+#.-]*)/.exec(line);
    if (fence) {
      const close = fence[1] as string;
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !(lines[i] as string).trimStart().startsWith(close)) body.push(lines[i++] as string);
      blocks.push({ kind: 'code', lang: fence[2] ?? '', lines: body });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: (heading[1] as string).length, text: heading[2] as string });
      continue;
    }
    const item = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      const marker = item[2] as string;
      blocks.push({ kind: 'item', marker: /\d/.test(marker) ? marker : '•', indent: Math.floor((item[1] as string).length / 2), text: item[3] as string });
      continue;
    }
    const quote = /^>\s?(.*)$/.exec(line);
    if (quote) {
      blocks.push({ kind: 'quote', text: quote[1] as string });
      continue;
    }
    if (line.trim() === '') {
      if (blocks.length > 0 && blocks.at(-1)?.kind !== 'blank') blocks.push({ kind: 'blank' });
      continue;
    }
    blocks.push({ kind: 'line', text: line });
  }
  while (blocks.at(-1)?.kind === 'blank') blocks.pop();
  return blocks;
}

/** Splits a line into plain, **bold** and `code` spans. */
export function parseInline(text: string): InlineSpan[] {
  const spans: InlineSpan[] = [];
  const pattern = /(\*\*[^*]+\*\*|__[^_]+__|`[^`]+`)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const token = match[0];
    const at = match.index;
    if (at > last) spans.push({ kind: 'plain', text: text.slice(last, at) });
    if (token.startsWith('`')) spans.push({ kind: 'code', text: token.slice(1, -1) });
    else spans.push({ kind: 'bold', text: token.slice(2, -2) });
    last = at + token.length;
  }
  if (last < text.length) spans.push({ kind: 'plain', text: text.slice(last) });
  return spans;
}
