/** Provider prefixes some tools put in front of a model id (`openai/gpt-4o`, `models/gemini-2.5-flash`). */
const PREFIX = /^(?:models|openai|anthropic|google|gemini|ollama)\//i;
/** Dated snapshot and version suffixes, tried in order. */
const SUFFIXES: readonly RegExp[] = [
  /-\d{4}-\d{2}-\d{2}$/, // OpenAI: gpt-4o-2024-08-06
  /-\d{8}$/, // Anthropic: claude-3-5-haiku-20241022
  /-latest$/, // claude-3-5-haiku-latest
  /-preview-\d{2}-\d{2}$/, // Gemini: gemini-2.5-flash-preview-05-20
  /-\d{3}$/, // Gemini: gemini-2.0-flash-001
  /-\d{4}$/, // OpenAI: gpt-3.5-turbo-0125
];

/**
 * The ids to try, in order, when looking a model up: the id itself, then forms with a provider
 * prefix (`models/`), an Ollama tag (`:3b`, `:latest`) and one dated/version suffix removed.
 * Never guesses across families: `gpt-4o-mini-2024-07-18` becomes `gpt-4o-mini`, not `gpt-4o`.
 */
export function modelIdCandidates(id: string): string[] {
  const out: string[] = [];
  const add = (candidate: string): void => {
    if (candidate && !out.includes(candidate)) out.push(candidate);
  };
  let current = id.trim();
  add(current);
  add(current.toLowerCase());
  current = current.toLowerCase().replace(PREFIX, '');
  add(current);
  const colon = current.indexOf(':');
  if (colon > 0 && !current.startsWith('ft:')) {
    current = current.slice(0, colon);
    add(current);
  }
  for (const suffix of SUFFIXES) {
    if (suffix.test(current)) {
      add(current.replace(suffix, ''));
      break;
    }
  }
  return out;
}
