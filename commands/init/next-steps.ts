import type { InitProvider } from './choices.js';

/** A first prompt to try with each template. */
const EXAMPLE_PROMPTS: Readonly<Record<string, string>> = {
  blank: 'What is 21 degrees Celsius in Fahrenheit?',
  code_reviewer: 'Review this project for bugs and security problems',
  customer_support: 'How do I return my espresso machine?',
  data_analyst: 'Which five products brought in the most revenue?',
  rag_chatbot: 'How much parental leave do I get?',
  research_assistant: 'What are the main changes in the latest Node.js LTS release?',
};

/** Flags the offline run of a template needs besides the cassette (the run's context). */
const OFFLINE_FLAGS: Readonly<Record<string, string>> = {
  code_reviewer: ' --var root=fixtures/sample-app',
};

/** Environment a template's tools read besides the provider's key. */
const TEMPLATE_ENV: Readonly<Record<string, string>> = {
  research_assistant: 'export TAVILY_API_KEY=…  (or BRAVE_API_KEY) for web_search',
  code_reviewer: 'the tools read the current directory (or AGENTLIB_CODE_ROOT)',
};

/** What to set up for a provider. */
export function providerSetup(provider: InitProvider, model: string): string {
  switch (provider) {
    case 'openai':
      return 'export OPENAI_API_KEY=sk-…';
    case 'anthropic':
      return 'export ANTHROPIC_API_KEY=sk-ant-…';
    case 'gemini':
      return 'export GEMINI_API_KEY=…  (or GOOGLE_API_KEY)';
    case 'ollama':
      return `ollama pull ${model}  (no API key; OLLAMA_HOST if the server is not on 127.0.0.1:11434)`;
  }
}

/** The shell-quoted form of `text` when it needs quoting. */
function quote(text: string): string {
  return /^[\w./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Where the written tools get agentlib from: the step is left out when it resolves from the target directory already. */
export interface AgentlibInstall {
  /** agentlib resolves from the target directory (installed in the project or above it). */
  resolvable: boolean;
  /** The agentlib checkout `init` runs from (a folder outside node_modules), when it is one. */
  checkout?: string | undefined;
}

/**
 * The install step: agentlib is not on the npm registry, so it comes from a checkout (its folder)
 * or from the tarball `npm pack` makes in one. Running from a checkout, the step names it.
 */
export function installStep(install: AgentlibInstall): string | undefined {
  if (install.resolvable) return undefined;
  const source = install.checkout === undefined ? '<agentlib checkout, or the agentlib-*.tgz `npm pack` makes in it>' : quote(install.checkout);
  return `npm install ${source}   # agentlib is not on the npm registry: install it from a checkout or a packed tarball`;
}

/** Options of {@link nextSteps}. */
export interface NextStepsOptions {
  dirLabel: string;
  template: string;
  provider: InitProvider;
  model: string;
  /** The prompt the written cassette replays; default the template's example prompt. */
  offlinePrompt?: string | undefined;
  /** What the eval suite replays (`--replay`): the template's per-case cassette folder; default cassette.jsonl. */
  evalReplay?: string | undefined;
  install: AgentlibInstall;
}

/** The "Next steps" lines printed after `agentlib init`: install, an offline run of the cassette, then the live setup. */
export function nextSteps(options: NextStepsOptions): string[] {
  const steps: string[] = [];
  if (options.dirLabel !== '.') steps.push(`cd ${quote(options.dirLabel)}`);
  const install = installStep(options.install);
  if (install !== undefined) steps.push(install);
  const prompt = EXAMPLE_PROMPTS[options.template] ?? 'Hello!';
  const offline = options.offlinePrompt ?? prompt;
  steps.push(`agentlib run agent.yaml "${offline}" --replay cassette.jsonl${OFFLINE_FLAGS[options.template] ?? ''}   # offline, no API key: a scripted run (PROVENANCE.md)`);
  steps.push(`agentlib eval run eval.yaml --replay ${options.evalReplay ?? 'cassette.jsonl'}   # its eval suite, offline (docs/evals.md)`);
  steps.push(providerSetup(options.provider, options.model));
  const extra = TEMPLATE_ENV[options.template];
  if (extra !== undefined) steps.push(extra);
  steps.push('agentlib doctor   # checks the setup, and that the tools load');
  steps.push(`agentlib run agent.yaml "${prompt}"`);
  return steps;
}
