/** One CSV cell with its 1-based position. */
export interface CsvCell {
  text: string;
  line: number;
  col: number;
}

/** Parses RFC 4180 CSV (quoted fields, `""` escapes, CRLF or LF) into rows of positioned cells. */
export function parseCsv(text: string): { rows: CsvCell[][]; error?: { line: number; col: number; message: string } } {
  const rows: CsvCell[][] = [];
  let row: CsvCell[] = [];
  let line = 1;
  let col = 1;
  let i = 0;
  const src = text.startsWith('\uFEFF') ? text.slice(1) : text;
  while (i <= src.length) {
    const startLine = line;
    const startCol = col;
    let value = '';
    if (src[i] === '"') {
      i++;
      col++;
      for (;;) {
        if (i >= src.length) return { rows, error: { line: startLine, col: startCol, message: 'unterminated quoted field' } };
        const ch = src[i] as string;
        if (ch === '"' && src[i + 1] === '"') {
          value += '"';
          i += 2;
          col += 2;
        } else if (ch === '"') {
          i++;
          col++;
          break;
        } else {
          value += ch;
          i++;
          if (ch === '\n') {
            line++;
            col = 1;
          } else col++;
        }
      }
    } else {
      while (i < src.length && src[i] !== ',' && src[i] !== '\n' && src[i] !== '\r') {
        value += src[i];
        i++;
        col++;
      }
    }
    row.push({ text: value, line: startLine, col: startCol });
    if (src[i] === ',') {
      i++;
      col++;
      continue;
    }
    if (src[i] === '\r') i++;
    if (i >= src.length || src[i] === '\n') {
      if (!(row.length === 1 && row[0]?.text === '')) rows.push(row);
      row = [];
      i++;
      line++;
      col = 1;
      if (i > src.length) break;
      continue;
    }
    return { rows, error: { line, col, message: 'unexpected character after a quoted field' } };
  }
  return { rows };
}
