/**
 * A small glob matcher for paths with `/` separators: `**` (any number of directories), `*` (any
 * characters but `/`), `?` (one character but `/`), `{a,b}` (alternatives) and `[abc]` classes.
 * A pattern without `/` matches the file name at any depth (`*.ts` is `**\/*.ts`).
 */
export function globToRegExp(pattern: string): RegExp {
  const source = pattern.includes('/') ? pattern.replace(/^\.\//, '') : `**/${pattern}`;
  let out = '';
  let depth = 0;
  for (let i = 0; i < source.length; i += 1) {
    const char = source.charAt(i);
    if (char === '*') {
      if (source.charAt(i + 1) === '*') {
        const slashAfter = source.charAt(i + 2) === '/';
        out += slashAfter ? '(?:[^/]*/)*' : '.*';
        i += slashAfter ? 2 : 1;
      } else out += '[^/]*';
    } else if (char === '?') out += '[^/]';
    else if (char === '{') {
      depth += 1;
      out += '(?:';
    } else if (char === '}' && depth > 0) {
      depth -= 1;
      out += ')';
    } else if (char === ',' && depth > 0) out += '|';
    else if (char === '[') {
      const close = source.indexOf(']', i + 1);
      if (close === -1) out += '\\[';
      else {
        const body = source.slice(i + 1, close).replace(/\\/g, '\\\\');
        out += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = close;
      }
    } else out += /[.+^$()|\\]/.test(char) ? `\\${char}` : char;
  }
  while (depth > 0) {
    out += ')';
    depth -= 1;
  }
  return new RegExp(`^${out}$`);
}
