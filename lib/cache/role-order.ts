import { isFrameWord, normalizeWord, stem } from './word-swaps.js';

/**
 * Frame words that give the word after them its role in the question: prepositions ("from London
 * to Paris"), the comparative "than" ("Mercury … than Venus") and the coordinators "and" / "or".
 * Every other frame word (articles, pronouns, auxiliaries, "please") says nothing about who does
 * what, so it is skipped.
 */
const RELATION_WORDS = new Set(['of', 'to', 'into', 'for', 'at', 'by', 'with', 'from', 'about', 'as', 'than', 'and', 'or']);
/** Question words start a clause, like punctuation: "At sea level, what is…" keeps its roles. */
const CLAUSE_WORDS = new Set(['what', 'which', 'who', 'whom', 'whose', 'when', 'where', 'why', 'how', 'whats', 'hows']);
/**
 * Directional particles move freely around the object of their verb ("turn off notifications" /
 * "turn notifications off"), so they take no part in word order here (the word-swap check still
 * sees "on" / "off").
 */
const PARTICLES = new Set(['on', 'off', 'in', 'out', 'up', 'down', 'over', 'back', 'away', 'around']);
const BOUNDARY = '^';
const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?|[,;:!?]|\.(?!\p{N})/gu;

/**
 * The question as a sequence of role tokens: content-word stems (as in `contentWords`), relation
 * words as `@of`, `@to`…, and `^` at a clause boundary (punctuation, a question word). The input of
 * `swapsRoles`.
 */
export function roleTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const raw of text.toLowerCase().match(TOKEN) ?? []) {
    if (!/[\p{L}\p{N}]/u.test(raw) || CLAUSE_WORDS.has(raw)) {
      tokens.push(BOUNDARY);
      continue;
    }
    const word = normalizeWord(raw);
    if (word === '') continue;
    if (CLAUSE_WORDS.has(word)) tokens.push(BOUNDARY);
    else if (RELATION_WORDS.has(word)) tokens.push(`@${word}`);
    else if (!isFrameWord(word) && !PARTICLES.has(word)) tokens.push(stem(word));
  }
  return tokens;
}

const isContent = (token: string): boolean => token !== BOUNDARY && !token.startsWith('@');

/**
 * Conjuncts commute: "a lion or a tiger" asks what "a tiger or a lion" asks. The content words
 * right before and after "and" / "or" are taken as the conjuncts (without a parser, a longer
 * conjunct is cut to its nearest word, consistently on both questions) and put in sorted order.
 */
function orderConjuncts(tokens: readonly string[]): string[] {
  const out = [...tokens];
  for (let i = 1; i < out.length - 1; i++) {
    if (out[i] !== '@and' && out[i] !== '@or') continue;
    const left = out[i - 1] ?? BOUNDARY;
    const right = out[i + 1] ?? BOUNDARY;
    if (isContent(left) && isContent(right) && left > right) {
      out[i - 1] = right;
      out[i + 1] = left;
    }
  }
  return out;
}

/**
 * Each content word with its role: the relation word or content word before it in its clause
 * ("tokyo after @from"), sorted. Only the words and relation words of `shared` count (a relation
 * word only one question has — "is it possible to change" / "can I change", "symbol for gold" /
 * "symbol of gold" — gives no role), and a repeated word only where it first appears.
 */
function roleSignature(tokens: readonly string[], shared: ReadonlySet<string>): string[] {
  const seen = new Set<string>();
  const projected = tokens.filter((token) => {
    if (token === BOUNDARY) return true;
    if (!shared.has(token)) return false;
    if (!isContent(token)) return true;
    if (seen.has(token)) return false;
    seen.add(token);
    return true;
  });
  const kept = orderConjuncts(projected);
  const signature: string[] = [];
  let previous = BOUNDARY;
  for (const token of kept) {
    if (isContent(token)) signature.push(`${previous}>${token}`);
    previous = token;
  }
  return signature.sort();
}

/**
 * True when the two questions give their shared content words different roles: the same words in
 * another order that changes who does what to whom — "flights from London to Paris" / "from Paris to
 * London", "did Brazil beat Germany" / "did Germany beat Brazil", "is a square a rectangle" / "is a
 * rectangle a square". Sentence embeddings are nearly blind to word order (these pairs score
 * 0.96–1.0), and the word-swap check sees no swapped word. A word's role is the relation word or
 * content word before it in its clause, so a phrase moved whole with its preposition ("at sea
 * level, what is…") and conjuncts in another order ("TCP and UDP" / "UDP and TCP") keep their roles.
 * Words and relation words only one question has are left out (adding "new" before "user" moves
 * no role), and directional particles do not count ("turn off X" / "turn X off").
 */
export function swapsRoles(a: readonly string[], b: readonly string[]): boolean {
  const inB = new Set(b);
  const shared = new Set(a.filter((token) => token !== BOUNDARY && inB.has(token)));
  if ([...shared].filter(isContent).length < 2) return false;
  const left = roleSignature(a, shared);
  const right = roleSignature(b, shared);
  return left.length !== right.length || left.some((entry, i) => entry !== right[i]);
}
