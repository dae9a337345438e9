import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseYaml } from 'agentlib/config';

/** A Markdown document loaded from a folder; its id is the file name without `.md`. */
export interface MarkdownDoc {
  id: string;
  title: string;
  /** Front-matter fields (strings and string lists only). */
  meta: Record<string, string | string[]>;
  /** The Markdown without the front matter. */
  body: string;
  /** The file name inside the folder. */
  file: string;
}

/** One section of a document, split at headings. */
export interface MarkdownChunk {
  /** `<doc id>#<section slug>` (unique within a folder). */
  id: string;
  docId: string;
  docTitle: string;
  /** Headings from the document title down to this section, joined with " > ". */
  heading: string;
  text: string;
  file: string;
}

/** The ids the loaders accept: safe file-name stems. */
export const DOC_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,99}$/;

function frontMatter(source: string): { meta: Record<string, string | string[]>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (!match) return { meta: {}, body: source };
  const meta: Record<string, string | string[]> = {};
  const parsed: unknown = parseYaml(match[1] ?? '');
  if (typeof parsed === 'object' && parsed !== null) {
    for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (typeof value === 'string' || typeof value === 'number') meta[key] = String(value);
      else if (Array.isArray(value)) meta[key] = value.map((item) => String(item));
    }
  }
  return { meta, body: source.slice(match[0].length) };
}

/**
 * Loads every `*.md` file of `dir` (not recursive), sorted by file name. The title is the
 * front-matter `title`, else the first `# ` heading, else the id. Files whose name is not a valid id
 * (see DOC_ID_PATTERN) are skipped.
 */
export function loadMarkdownDocs(dir: string): MarkdownDoc[] {
  const docs: MarkdownDoc[] = [];
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.md')).sort()) {
    const id = file.slice(0, -3).toLowerCase();
    if (!DOC_ID_PATTERN.test(id) || id === 'readme') continue;
    const { meta, body } = frontMatter(readFileSync(join(dir, file), 'utf8'));
    const heading = /^#\s+(.+)$/m.exec(body)?.[1]?.trim();
    const title = typeof meta['title'] === 'string' ? meta['title'] : (heading ?? id);
    docs.push({ id, title, meta, body: body.trim(), file });
  }
  return docs;
}

/** A URL-style slug of a heading. */
export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9\s-]/g, '')
      .trim()
      .replace(/[\s-]+/g, '-') || 'section'
  );
}

/**
 * Splits a document at its Markdown headings (outside code fences). Each chunk keeps its heading
 * path; sections longer than `maxChars` are split again at paragraph boundaries (`-2`, `-3`, … ids).
 */
export function chunkByHeadings(doc: MarkdownDoc, maxChars = 1500): MarkdownChunk[] {
  const sections: { path: string[]; lines: string[] }[] = [];
  const stack: { level: number; text: string }[] = [];
  let current: { path: string[]; lines: string[] } = { path: [doc.title], lines: [] };
  let inFence = false;
  for (const line of doc.body.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      sections.push(current);
      const level = (heading[1] ?? '#').length;
      const text = heading[2] ?? '';
      while (stack.length > 0 && (stack[stack.length - 1]?.level ?? 0) >= level) stack.pop();
      stack.push({ level, text });
      const path = stack.map((entry) => entry.text);
      if (path[0] !== doc.title) path.unshift(doc.title);
      current = { path, lines: [] };
    } else current.lines.push(line);
  }
  sections.push(current);

  const chunks: MarkdownChunk[] = [];
  const used = new Map<string, number>();
  for (const section of sections) {
    const text = section.lines.join('\n').trim();
    if (text === '') continue;
    const last = section.path[section.path.length - 1] ?? doc.title;
    const base = section.path.length <= 1 ? 'intro' : slugify(last);
    for (const part of splitLong(text, maxChars)) {
      const count = (used.get(base) ?? 0) + 1;
      used.set(base, count);
      chunks.push({
        id: `${doc.id}#${count === 1 ? base : `${base}-${count}`}`,
        docId: doc.id,
        docTitle: doc.title,
        heading: section.path.join(' > '),
        text: part,
        file: doc.file,
      });
    }
  }
  return chunks;
}

function splitLong(text: string, maxChars: number): string[] {
  if (text.length <= maxChars) return [text];
  const parts: string[] = [];
  let current = '';
  for (const paragraph of text.split(/\n\s*\n/)) {
    if (current !== '' && current.length + paragraph.length + 2 > maxChars) {
      parts.push(current);
      current = '';
    }
    current = current === '' ? paragraph : `${current}\n\n${paragraph}`;
  }
  if (current !== '') parts.push(current);
  return parts;
}
