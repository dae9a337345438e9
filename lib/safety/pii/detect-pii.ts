import { cardNetworkValid, ibanValid, luhnValid, ssnValid } from './checksums.js';
import { PII_MASKS, PII_TYPES, type CustomPiiPattern, type DetectPiiOptions, type PiiMatch, type PiiType } from './pii-types.js';

type Candidate = { start: number; text: string };
type Finder = (text: string) => Candidate[];

/** All matches of a global regex, as candidates (group 0). */
function scan(text: string, regex: RegExp): RegExpExecArray[] {
  regex.lastIndex = 0;
  const found: RegExpExecArray[] = [];
  let m: RegExpExecArray | null;
  while ((m = regex.exec(text)) !== null) {
    found.push(m);
    if (m[0] === '') regex.lastIndex++;
  }
  return found;
}

const FILE_EXTENSION_TLD = /\.(?:png|jpe?g|gif|svg|webp|ico|bmp|css|js|mjs|ts|tsx|json|map|html?|txt|md|py|rb|go|rs|java|zip|gz|tar|pdf)$/i;
const EMAIL = /(?<![\w.%+-])[A-Za-z0-9](?:[A-Za-z0-9._%+-]{0,62}[A-Za-z0-9])?@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w-]|\.[A-Za-z])/g;

const findEmail: Finder = (text) =>
  scan(text, EMAIL)
    .filter((m) => !FILE_EXTENSION_TLD.test(m[0]) && !m[0].includes('..'))
    .map((m) => ({ start: m.index, text: m[0] }));

// International: +CC and 2–6 groups; North American national: (AAA) EEE-NNNN, AAA-EEE-NNNN, AAA.EEE.NNNN;
// other national formats starting with a trunk 0 ("020 7946 0958", "06 12 34 56 78", "(030) 1234 5678").
const PHONE_INTL = /(?<![\w+])\+[1-9]\d{0,2}(?:[ .-]?(?:\(\d{1,4}\)|\d{1,4})){2,6}(?![\w-]|\.\d)/g;
const PHONE_NANP = /(?<![\w.+-]|\d[ -])(?:1[ .-])?(?:\([2-9]\d{2}\) ?|[2-9]\d{2}[ .-])[2-9]\d{2}[ .-]\d{4}(?![\w-]|\.\d)/g;
const PHONE_TRUNK = /(?<![\w.+-]|\d[ -])(?:\(0[1-9]\d{0,3}\) ?|0[1-9]\d{0,3}[ -])\d{2,4}(?:[ -]\d{2,4}){1,3}(?![\w-]|\.\d)/g;

const digitCount = (s: string): number => s.replace(/\D/g, '').length;

const findPhone: Finder = (text) => [
  ...scan(text, PHONE_INTL).filter((m) => {
    const n = digitCount(m[0]);
    return n >= 8 && n <= 15;
  }),
  ...scan(text, PHONE_NANP).filter((m) => {
    // One kind of separator between the exchange and the line number ("555-123-4567", "555.123.4567").
    const seps = m[0].replace(/^1[ .-]/, '').replace(/[\d()]/g, '').replace(/ +/g, ' ');
    return new Set(seps.replace(/^ /, '')).size <= 1 || /^\(\d{3}\) ?\d{3}-\d{4}$/.test(m[0].replace(/^1[ .-]/, ''));
  }),
  ...scan(text, PHONE_TRUNK).filter((m) => {
    const n = digitCount(m[0]);
    const seps = new Set(m[0].replace(/[\d()]/g, ''));
    return n >= 9 && n <= 11 && seps.size <= 1;
  }),
].map((m) => ({ start: m.index, text: m[0] }));

const SSN_FORMATTED = /(?<![\w-])(\d{3})([- ])(\d{2})\2(\d{4})(?![\w-])/g;
const SSN_BARE = /(?<![\w-])(\d{3})(\d{2})(\d{4})(?![\w-])/g;
/** A bare nine-digit number is an SSN only after one of these words (within 24 characters). */
const SSN_CONTEXT = /(?:\bssn|social security(?: number| no\.?)?|\bss#|\bsoc\.? ?sec\.?(?: no\.?)?)[\s:#=.-]*(?:is|was|:)?[\s:#=-]*$/i;

const findSsn: Finder = (text) => [
  ...scan(text, SSN_FORMATTED).filter((m) => ssnValid(m[1]!, m[3]!, m[4]!)),
  ...scan(text, SSN_BARE).filter((m) => ssnValid(m[1]!, m[2]!, m[3]!) && SSN_CONTEXT.test(text.slice(Math.max(0, m.index - 30), m.index))),
].map((m) => ({ start: m.index, text: m[0] }));

// Cards: groups of four (13–19 digits), the 4-6-5 / 4-6-4 layout of Amex and Diners, or one run of digits.
const CARD_GROUPED = /(?<![\w-])\d{4}([ -])\d{4}\1\d{4}\1\d{1,4}(?:\1\d{1,3})?(?![\w-])/g;
const CARD_AMEX = /(?<![\w-])\d{4}([ -])\d{6}\1\d{4,5}(?![\w-])/g;
const CARD_RUN = /(?<![\w.-])\d{12,19}(?![\w-]|\.\d)/g;

function cardValid(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, '');
  return digits.length >= 12 && digits.length <= 19 && cardNetworkValid(digits) && luhnValid(digits);
}

const findCard: Finder = (text) => {
  const found: Candidate[] = [];
  for (const m of [...scan(text, CARD_GROUPED), ...scan(text, CARD_AMEX), ...scan(text, CARD_RUN)]) {
    if (cardValid(m[0])) found.push({ start: m.index, text: m[0] });
  }
  return found;
};

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`(?<![\\w.])${OCTET}(?:\\.${OCTET}){3}(?!\\w|\\.\\d)`, 'g');
/** Words after which a dotted quad is a version number, not an address. */
const VERSION_BEFORE = /(?:\bv|\bversion|\bver\.?|\bbuild|\brelease|\bfirmware|\bOID|\bchapter|\bsection|\bclause|\bfigure|\bfig\.|\btable|§)\s*:?\s*$/i;

const findIpv4: Finder = (text) =>
  scan(text, IPV4)
    .filter((m) => !VERSION_BEFORE.test(text.slice(Math.max(0, m.index - 12), m.index)))
    .map((m) => ({ start: m.index, text: m[0] }));

const H = '[0-9a-fA-F]{1,4}';
const IPV6_FORMS = [
  `(?:${H}:){7}${H}`,
  `(?:${H}:){1,7}:`,
  `(?:${H}:){1,6}:${H}`,
  `(?:${H}:){1,5}(?::${H}){1,2}`,
  `(?:${H}:){1,4}(?::${H}){1,3}`,
  `(?:${H}:){1,3}(?::${H}){1,4}`,
  `(?:${H}:){1,2}(?::${H}){1,5}`,
  `${H}:(?::${H}){1,6}`,
  `::(?:ffff(?::0{1,4})?:)?(?:\\d{1,3}\\.){3}\\d{1,3}`,
  `:(?::${H}){1,7}`,
];
const IPV6 = new RegExp(`(?<![\\w:.])(?:${IPV6_FORMS.join('|')})(?![\\w:]|\\.\\d)`, 'g');

const findIpv6: Finder = (text) =>
  scan(text, IPV6)
    .filter((m) => /\d/.test(m[0]) && (m[0].includes('::') || m[0].split(':').length === 8))
    .map((m) => ({ start: m.index, text: m[0] }));

const IBAN = /(?<![\w])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{1,4}){3,8}(?![\w])/g;

const findIban: Finder = (text) => {
  const found: Candidate[] = [];
  for (const m of scan(text, IBAN)) {
    // The last groups may belong to the next word ("… 0130 00 ON FILE"): drop them until it checks out.
    let candidate = m[0];
    while (candidate.replace(/ /g, '').length >= 15) {
      if (ibanValid(candidate.replace(/ /g, ''))) {
        found.push({ start: m.index, text: candidate });
        break;
      }
      const cut = candidate.lastIndexOf(' ');
      if (cut < 0) break;
      candidate = candidate.slice(0, cut);
    }
  }
  return found;
};

const FINDERS: Readonly<Record<PiiType, Finder>> = {
  email: findEmail,
  phone: findPhone,
  ssn: findSsn,
  credit_card: findCard,
  ipv4: findIpv4,
  ipv6: findIpv6,
  iban: findIban,
};

function customFinder(custom: CustomPiiPattern): Finder {
  const source = typeof custom.pattern === 'string' ? custom.pattern : custom.pattern.source;
  const flags = typeof custom.pattern === 'string' ? 'g' : custom.pattern.flags.includes('g') ? custom.pattern.flags : `${custom.pattern.flags}g`;
  const regex = new RegExp(source, flags);
  return (text) => scan(text, regex).filter((m) => m[0] !== '').map((m) => ({ start: m.index, text: m[0] }));
}

/** The mask of a custom pattern: its own, or `[NAME]`. */
export function customMask(custom: CustomPiiPattern): string {
  return custom.mask ?? `[${custom.name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}]`;
}

/**
 * Finds personal data in `text`: emails, phone numbers (international and national formats), US
 * SSNs (issued ranges only; a bare nine-digit number only after "SSN" or "social security"),
 * payment cards (a major network's prefix and length, Luhn-valid, plain, spaced or dashed),
 * IPv4 and IPv6 addresses (not version strings), IBANs (country length and mod-97 checksum), and
 * the matches of custom patterns. Overlapping matches keep the earliest, then the longest.
 */
export function detectPii(text: string, options: DetectPiiOptions = {}): PiiMatch[] {
  const wanted = options.types ?? PII_TYPES;
  const all: PiiMatch[] = [];
  for (const type of PII_TYPES) {
    if (!wanted.includes(type)) continue;
    for (const c of FINDERS[type](text)) all.push({ type, start: c.start, end: c.start + c.text.length, text: c.text, mask: PII_MASKS[type] });
  }
  for (const custom of options.custom ?? []) {
    const mask = customMask(custom);
    for (const c of customFinder(custom)(text)) all.push({ type: custom.name, start: c.start, end: c.start + c.text.length, text: c.text, mask });
  }
  all.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
  const kept: PiiMatch[] = [];
  let until = -1;
  for (const match of all) {
    if (match.start < until) continue;
    kept.push(match);
    until = match.end;
  }
  return kept;
}

/** `text` with every match replaced by its mask. */
export function redactMatches(text: string, matches: readonly PiiMatch[]): string {
  let out = '';
  let at = 0;
  for (const m of [...matches].sort((a, b) => a.start - b.start)) {
    if (m.start < at) continue;
    out += text.slice(at, m.start) + m.mask;
    at = m.end;
  }
  return out + text.slice(at);
}
