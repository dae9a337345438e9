/** A kind of personal data the detector finds. */
export type PiiKind = 'email' | 'phone' | 'ssn' | 'credit-card' | 'iban';

/** One finding: its kind and the matched text. */
export interface PiiFinding {
  kind: PiiKind;
  text: string;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
// US SSN written as AAA-GG-SSSS (dashes or spaces): a bare run of nine digits is not an SSN.
const SSN = /\b(\d{3})[- ](\d{2})[- ](\d{4})\b/g;
const CARD = /\b(?:\d[ -]?){12,18}\d\b/g;
const PHONE = /(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,4}\)[ .-]?|\b\d{2,4}[ .-])\d{3,4}[ .-]\d{3,4}\b/g;
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g;

/** Luhn checksum over the digits of `text`. */
export function luhnValid(text: string): boolean {
  const digits = text.replace(/\D/g, '');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length >= 13 && sum % 10 === 0;
}

function validSsn(area: string, group: string, serial: string): boolean {
  return area !== '000' && area !== '666' && !area.startsWith('9') && group !== '00' && serial !== '0000';
}

function ibanValid(text: string): boolean {
  const compact = text.replace(/ /g, '');
  const rotated = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const ch of rotated) {
    const code = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of code) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/**
 * Finds personal data in text: e-mail addresses, SSNs written AAA-GG-SSSS with valid area/group/
 * serial numbers (nine bare digits are not an SSN), card numbers that pass the Luhn check, phone
 * numbers in grouped international or national form, and IBANs with a valid checksum.
 */
export function detectPii(text: string): PiiFinding[] {
  const findings: PiiFinding[] = [];
  for (const m of text.matchAll(EMAIL)) findings.push({ kind: 'email', text: m[0] });
  for (const m of text.matchAll(SSN)) if (validSsn(m[1] ?? '', m[2] ?? '', m[3] ?? '')) findings.push({ kind: 'ssn', text: m[0] });
  for (const m of text.matchAll(CARD)) if (luhnValid(m[0])) findings.push({ kind: 'credit-card', text: m[0] });
  for (const m of text.matchAll(IBAN)) if (ibanValid(m[0])) findings.push({ kind: 'iban', text: m[0] });
  // Phone numbers inside a longer card- or IBAN-shaped run of digits are not phone numbers.
  const spans = [...text.matchAll(CARD), ...text.matchAll(IBAN), ...text.matchAll(SSN)].map((m) => [m.index, m.index + m[0].length] as const);
  for (const m of text.matchAll(PHONE)) {
    const digits = m[0].replace(/\D/g, '');
    const inside = spans.some(([start, end]) => m.index >= start && m.index + m[0].length <= end);
    if (digits.length >= 9 && digits.length <= 15 && !inside) findings.push({ kind: 'phone', text: m[0].trim() });
  }
  return findings;
}
