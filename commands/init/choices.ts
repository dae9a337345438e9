import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listTemplates, templatesDirectory, type TemplateOptions } from '../../lib/config/templates.js';
import { closestMatch } from '../../lib/core/suggest.js';
import { DEFAULT_MODELS } from '../../lib/providers/models/defaults.js';
import { UsageError } from '../../cli/usage-error.js';
import { listGraphTemplates } from './graph-template.js';

/** The template that starts from scratch: an agent.yaml and a one-tool `tools.ts` stub. */
export const BLANK_TEMPLATE = 'blank';

/** Providers `agentlib init` offers (openai-compatible needs a base_url: edit the file for it). */
export const INIT_PROVIDERS = ['openai', 'anthropic', 'gemini', 'ollama'] as const;
export type InitProvider = (typeof INIT_PROVIDERS)[number];

/** The default agent name of the blank template. */
export const BLANK_AGENT_NAME = 'my_agent';

/** A choice of the template question. */
export interface TemplateChoice {
  name: string;
  description: string;
}

/** What each provider needs in the environment, for the next steps. */
export const PROVIDER_ENV: Readonly<Record<InitProvider, string>> = {
  openai: 'export OPENAI_API_KEY=sk-…',
  anthropic: 'export ANTHROPIC_API_KEY=sk-ant-…',
  gemini: 'export GEMINI_API_KEY=…  (or GOOGLE_API_KEY)',
  ollama: 'no API key; start Ollama (`ollama serve`, OLLAMA_HOST if not 127.0.0.1:11434) and `ollama pull <model>`',
};

/** The default model of a provider (lib/providers/models/defaults.ts). */
export function defaultModel(provider: InitProvider): string {
  return DEFAULT_MODELS[provider];
}

/** The agent name a template starts with: the template's own name, `my_agent` for blank. */
export function defaultAgentName(template: string): string {
  return template === BLANK_TEMPLATE ? BLANK_AGENT_NAME : template;
}

/**
 * One line about a template: the first line of its README.md that is not a heading, without
 * Markdown code marks, shortened to `max` characters.
 */
export function templateDescription(template: string, options: TemplateOptions = {}, max = 100): string {
  let text: string;
  try {
    text = readFileSync(join(templatesDirectory(options), template, 'README.md'), 'utf8');
  } catch {
    return '';
  }
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '' && !l.startsWith('#'));
  if (line === undefined) return '';
  const plain = line.replace(/`/g, '').replace(/\s+/g, ' ');
  return plain.length > max ? `${plain.slice(0, max - 1).trimEnd()}…` : plain;
}

/** Every template `init` offers: blank first, then the bundled templates with their descriptions. */
export function templateChoices(options: TemplateOptions = {}): TemplateChoice[] {
  return [
    { name: BLANK_TEMPLATE, description: 'An empty agent with one example tool in tools.ts to start from' },
    ...[...listTemplates(options), ...listGraphTemplates(options)].sort().map((name) => ({ name, description: templateDescription(name, options) })),
  ];
}

function unknownValue(kind: string, flag: string, value: string, known: readonly string[]): UsageError {
  const suggestion = closestMatch(value, known);
  const did = suggestion === undefined ? '' : ` — did you mean "${suggestion}"?`;
  return new UsageError(`unknown ${kind} "${value}" for ${flag}${did} (choose one of: ${known.join(', ')})`, suggestion === undefined ? {} : { suggestion });
}

/** Checks a `--template` value: `blank` or a bundled template; a typo gets a did-you-mean. */
export function resolveTemplate(value: string, options: TemplateOptions = {}): string {
  const known = [BLANK_TEMPLATE, ...listTemplates(options), ...listGraphTemplates(options)];
  const name = value.trim();
  if (name === '') throw new UsageError(`--template needs a value (choose one of: ${known.join(', ')})`);
  if (known.includes(name)) return name;
  throw unknownValue('template', '--template', name, known);
}

/** Checks a `--provider` value (case-insensitive); a typo gets a did-you-mean. */
export function resolveProvider(value: string): InitProvider {
  const name = value.trim().toLowerCase();
  if (name === '') throw new UsageError(`--provider needs a value (choose one of: ${INIT_PROVIDERS.join(', ')})`);
  if ((INIT_PROVIDERS as readonly string[]).includes(name)) return name as InitProvider;
  throw unknownValue('provider', '--provider', value.trim(), INIT_PROVIDERS);
}

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$/;

/** Why an agent name is not usable, or undefined when it is. */
export function agentNameProblem(value: string): string | undefined {
  if (value.trim() === '') return 'the agent name must not be empty';
  if (!NAME_PATTERN.test(value.trim())) return `invalid agent name "${value}": use 1–64 letters, digits, spaces, "_", "." or "-", starting with a letter or digit`;
  return undefined;
}

/** Why a model id is not usable, or undefined when it is. */
export function modelProblem(value: string): string | undefined {
  if (value.trim() === '') return 'the model must not be empty';
  if (/\s/.test(value.trim())) return `invalid model "${value}": a model id has no spaces`;
  return undefined;
}
