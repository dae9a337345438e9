import type { InitProvider } from './choices.js';

/** A first prompt to try with each template. */
const EXAMPLE_PROMPTS: Readonly<Record<string, string>> = {
  blank: 'What time is it in Tokyo?',
  code_reviewer: 'Review this project for bugs and security problems',
  customer_support: 'How do I return my espresso machine?',
  data_analyst: 'Which five products brought in the most revenue?',
  rag_chatbot: 'How much parental leave do I get?',
  research_assistant: 'What are the main changes in the latest Node.js LTS release?',
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

/** The "Next steps" lines printed after `agentlib init`. */
export function nextSteps(options: { dirLabel: string; template: string; provider: InitProvider; model: string; packages: readonly string[] }): string[] {
  const steps: string[] = [];
  if (options.dirLabel !== '.') steps.push(`cd ${quote(options.dirLabel)}`);
  if (options.packages.length > 0) steps.push(`npm install ${options.packages.join(' ')}   # what the tools import`);
  steps.push(providerSetup(options.provider, options.model));
  const extra = TEMPLATE_ENV[options.template];
  if (extra !== undefined) steps.push(extra);
  steps.push('agentlib doctor   # checks the setup');
  steps.push(`agentlib run agent.yaml "${EXAMPLE_PROMPTS[options.template] ?? 'Hello!'}"`);
  return steps;
}
