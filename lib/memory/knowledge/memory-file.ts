import { createHash } from 'node:crypto';
import { CorruptRecordError } from '../../storage/index.js';
import { entryProblem, type KnowledgeEntry } from './knowledge-entry.js';

/** File name of the long-term memory of a FileKnowledgeStore. */
export const MEMORY_FILE = 'MEMORY.md';

const HEADER = [
  '# Long-term Memory',
  '',
  '<!-- Written by agentlib (KnowledgeMemory). One entry per "- " line; the trailing comment is its record.',
  '     A "- " line you add without a comment becomes an entry of importance 0.5. -->',
  '',
];
const RECORD_START = ' <!-- agentlib ';

/** JSON that cannot close an HTML comment or start one (`<` and `>` escaped). */
function commentSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
}

/** MEMORY.md for these entries: a readable bullet per entry, its record in a trailing comment. */
export function renderMemoryFile(entries: readonly KnowledgeEntry[]): string {
  const lines = entries.map((e) => {
    const shown = e.content.replace(/\s+/g, ' ').trim().replace(/<!--/g, '<!\u2060--');
    const tags = e.categories.length === 0 ? '' : ` [${e.categories.join(', ')}]`;
    return `- ${shown}${tags}${RECORD_START}${commentSafeJson(e)} -->`;
  });
  return `${[...HEADER, ...lines].join('\n')}\n`;
}

/**
 * The entries of a MEMORY.md: bullets with a record comment as recorded; bullets without one (added
 * by hand) as entries of importance 0.5 with an id from their text. A record that does not parse is
 * a CorruptRecordError naming the file and line.
 */
export function parseMemoryFile(text: string, path: string, createdAt: number): KnowledgeEntry[] {
  const entries: KnowledgeEntry[] = [];
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (!line.startsWith('- ')) continue;
    const at = line.lastIndexOf(RECORD_START);
    if (at === -1 || !line.endsWith(' -->')) {
      const content = line.slice(2).trim();
      if (content === '') continue;
      const id = `md-${createHash('sha256').update(content).digest('hex').slice(0, 16)}`;
      entries.push({ id, content, importance: 0.5, categories: [], createdAt });
      continue;
    }
    const where = `${path}:${index + 1}`;
    let record: unknown;
    try {
      record = JSON.parse(line.slice(at + RECORD_START.length, -' -->'.length));
    } catch (error) {
      throw new CorruptRecordError({ where, reason: `the entry's record is not JSON (${(error as Error).message})`, cause: error });
    }
    const problem = entryProblem(record);
    if (problem !== undefined) throw new CorruptRecordError({ where, reason: problem });
    entries.push(record as KnowledgeEntry);
  }
  return entries;
}
