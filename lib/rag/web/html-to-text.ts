/**
 * HTML → readable plain text without a DOM: drops scripts, styles and other non-content elements,
 * turns block elements into line breaks and list items into "- " lines, strips the remaining tags,
 * decodes character references and collapses whitespace.
 */

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ensp: ' ', emsp: ' ', thinsp: ' ',
  copy: '©', reg: '®', trade: '™', hellip: '…', mdash: '—', ndash: '–', minus: '−',
  lsquo: '‘', rsquo: '’', sbquo: '‚', ldquo: '“', rdquo: '”', bdquo: '„', laquo: '«', raquo: '»',
  lsaquo: '‹', rsaquo: '›', bull: '•', middot: '·', deg: '°', plusmn: '±', times: '×', divide: '÷',
  frac12: '½', frac14: '¼', frac34: '¾', sup2: '²', sup3: '³', micro: 'µ', para: '¶', sect: '§',
  euro: '€', pound: '£', yen: '¥', cent: '¢', curren: '¤', iexcl: '¡', iquest: '¿', shy: '',
  zwj: '', zwnj: '', lrm: '', rlm: '', dagger: '†', Dagger: '‡', permil: '‰', prime: '′', Prime: '″',
  larr: '←', rarr: '→', uarr: '↑', darr: '↓', harr: '↔', le: '≤', ge: '≥', ne: '≠', asymp: '≈',
  infin: '∞', check: '✓', auml: 'ä', ouml: 'ö', uuml: 'ü', Auml: 'Ä', Ouml: 'Ö', Uuml: 'Ü', szlig: 'ß',
  eacute: 'é', egrave: 'è', ecirc: 'ê', aacute: 'á', agrave: 'à', acirc: 'â', iacute: 'í', oacute: 'ó',
  uacute: 'ú', ntilde: 'ñ', ccedil: 'ç', Eacute: 'É', aring: 'å', oslash: 'ø', aelig: 'æ',
};

/** Decodes named (common set), decimal and hexadecimal character references. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]{1,8}|#\d{1,9}|[A-Za-z][A-Za-z0-9]{1,31});?/g, (whole, body: string) => {
    if (body.startsWith('#')) {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
      return String.fromCodePoint(code);
    }
    return NAMED_ENTITIES[body] ?? whole;
  });
}

const DROPPED = ['script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'canvas', 'head', 'select'];
const BLOCK =
  'address|article|aside|blockquote|body|br|dd|details|dialog|div|dl|dt|fieldset|figcaption|figure|footer|form|h[1-6]|header|hr|html|legend|main|nav|ol|p|pre|section|summary|table|tbody|tfoot|thead|tr|ul';
const TAG = /<\/?[A-Za-z][^\s/>]*(?:[^>"']|"[^"]*"|'[^']*')*>/g;

/** The text of the first `<title>` element, decoded and collapsed, or undefined. */
export function htmlTitle(html: string): string | undefined {
  const match = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  if (!match) return undefined;
  const title = decodeEntities((match[1] ?? '').replace(TAG, '')).replace(/\s+/g, ' ').trim();
  return title === '' ? undefined : title;
}

/** Readable text of an HTML document or fragment. */
export function htmlToText(html: string): string {
  let text = html.replace(/<!--[\s\S]*?(?:-->|$)/g, ' ').replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, ' ').replace(/<![^>]*>/g, ' ');
  for (const name of DROPPED) {
    text = text.replace(new RegExp(`<${name}\\b(?:[^>"']|"[^"]*"|'[^']*')*>[\\s\\S]*?(?:<\\/${name}\\s*>|$)`, 'gi'), ' ');
    text = text.replace(new RegExp(`<${name}\\b(?:[^>"']|"[^"]*"|'[^']*')*\\/>`, 'gi'), ' ');
  }
  text = text
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<\/(?:td|th)\s*>/gi, ' \t ')
    .replace(new RegExp(`</?(?:${BLOCK})\\b(?:[^>"']|"[^"]*"|'[^']*')*>`, 'gi'), '\n')
    .replace(TAG, '');
  text = decodeEntities(text);
  return text
    .split('\n')
    .map((line) => line.replace(/[\s\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^(?:- )?\n/, '')
    .trim();
}
