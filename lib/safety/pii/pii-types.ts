/** The built-in kinds of personal data the PII detector finds. */
export type PiiType = 'email' | 'phone' | 'ssn' | 'credit_card' | 'ipv4' | 'ipv6' | 'iban';

/** Every built-in kind, in detection priority order. */
export const PII_TYPES: readonly PiiType[] = ['email', 'iban', 'credit_card', 'ssn', 'ipv6', 'ipv4', 'phone'];

/** The typed token each kind is replaced with when redacting. */
export const PII_MASKS: Readonly<Record<PiiType, string>> = {
  email: '[EMAIL]',
  phone: '[PHONE]',
  ssn: '[SSN]',
  credit_card: '[CARD]',
  ipv4: '[IP_ADDRESS]',
  ipv6: '[IP_ADDRESS]',
  iban: '[IBAN]',
};

/** One piece of personal data found in a text. */
export interface PiiMatch {
  /** A built-in kind or the name of a custom pattern. */
  type: string;
  start: number;
  end: number;
  /** The matched text (never put it in events, traces or logs: use `mask`). */
  text: string;
  /** The token that replaces it: `[EMAIL]`, `[CARD]`, `[EMPLOYEE_ID]`. */
  mask: string;
}

/** A pattern of your own: every match is PII of kind `name`. */
export interface CustomPiiPattern {
  name: string;
  /** A RegExp (made global) or its source text. */
  pattern: RegExp | string;
  /** Replacement token. Default `[NAME]` (the name upper-cased). */
  mask?: string;
}

/** Options of {@link detectPii}. */
export interface DetectPiiOptions {
  /** Built-in kinds to look for. Default all. */
  types?: readonly PiiType[];
  /** Extra patterns. */
  custom?: readonly CustomPiiPattern[];
}
