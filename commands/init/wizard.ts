import { agentNameProblem, defaultAgentName, defaultModel, INIT_PROVIDERS, modelProblem, BLANK_TEMPLATE, type InitProvider, type TemplateChoice } from './choices.js';
import type { Prompter } from './prompter.js';

/** The values an agent is created with. */
export interface InitAnswers {
  template: string;
  name: string;
  provider: InitProvider;
  model: string;
}

/** Values already given on the command line (already validated): their questions are skipped. */
export type InitPreset = Partial<InitAnswers>;

/** Fills what the command line left open with the defaults (the non-interactive path, `--yes`). */
export function defaultAnswers(preset: InitPreset): InitAnswers {
  const template = preset.template ?? BLANK_TEMPLATE;
  const provider = preset.provider ?? 'openai';
  return { template, name: preset.name ?? defaultAgentName(template), provider, model: preset.model ?? defaultModel(provider) };
}

/** What the wizard needs besides the prompter. */
export interface WizardOptions {
  preset: InitPreset;
  /** The template question's options (blank first). */
  templates: readonly TemplateChoice[];
  /** The target directory as shown to the user. */
  dirLabel: string;
  /** The files the answers would write, and which of them exist already. */
  plan: (answers: InitAnswers) => { files: readonly string[]; existing: readonly string[] };
  /** `--force`: existing files are overwritten without a question. */
  force: boolean;
}

/** The wizard's outcome: the answers, and whether to write (and overwrite existing files). */
export interface WizardResult {
  answers: InitAnswers;
  write: boolean;
  overwrite: boolean;
}

const PROVIDER_LABELS: Readonly<Record<InitProvider, string>> = {
  openai: 'OpenAI (OPENAI_API_KEY)',
  anthropic: 'Anthropic (ANTHROPIC_API_KEY)',
  gemini: 'Google Gemini (GEMINI_API_KEY)',
  ollama: 'Ollama (local models, no key)',
};

function listed(files: readonly string[], max = 4): string {
  return files.length <= max ? files.join(', ') : `${files.slice(0, max).join(', ')} and ${files.length - max} more`;
}

/**
 * The interactive `agentlib init`: asks for the template, the agent name, the provider and the
 * model (each skipped when its flag was given), then confirms writing, or overwriting the files
 * that exist.
 */
export async function runWizard(prompter: Prompter, options: WizardOptions): Promise<WizardResult> {
  const { preset } = options;
  const template =
    preset.template ??
    (await prompter.select({
      message: 'Template',
      choices: options.templates.map((choice) => ({ value: choice.name, name: choice.name, description: choice.description })),
      default: BLANK_TEMPLATE,
    }));
  const name =
    preset.name ??
    (
      await prompter.input({
        message: 'Agent name',
        default: defaultAgentName(template),
        validate: (value) => agentNameProblem(value) ?? true,
      })
    ).trim();
  const provider =
    preset.provider ??
    ((await prompter.select({
      message: 'Provider',
      choices: INIT_PROVIDERS.map((value) => ({ value, name: PROVIDER_LABELS[value] })),
      default: 'openai',
    })) as InitProvider);
  const model =
    preset.model ??
    (
      await prompter.input({
        message: 'Model',
        default: defaultModel(provider),
        validate: (value) => modelProblem(value) ?? true,
      })
    ).trim();
  const answers: InitAnswers = { template, name, provider, model };
  const { files, existing } = options.plan(answers);
  if (existing.length > 0 && !options.force) {
    const overwrite = await prompter.confirm({ message: `${listed(existing)} already ${existing.length === 1 ? 'exists' : 'exist'} in ${options.dirLabel}. Overwrite?`, default: false });
    return { answers, write: overwrite, overwrite };
  }
  const write = await prompter.confirm({ message: `Write ${listed(files)} to ${options.dirLabel}?`, default: true });
  return { answers, write, overwrite: options.force };
}
