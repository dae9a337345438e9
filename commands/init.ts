import { resolve, relative, join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { ExitCode } from '../cli/exit-codes.js';
import { writeJson, writeLog, type CliIO } from '../cli/output.js';
import { UsageError } from '../cli/usage-error.js';
import { loadAgentConfig } from '../lib/config/parse-agent-config.js';
import { TEMPLATE_FILE } from '../lib/config/templates.js';
import type { CommandArguments, CommandContext } from './command-module.js';
import { agentNameProblem, modelProblem, resolveProvider, resolveTemplate, templateChoices } from './init/choices.js';
import { agentlibInstall } from './init/agentlib-install.js';
import { nextSteps, providerSetup, type AgentlibInstall } from './init/next-steps.js';
import { inquirerPrompter, type Prompter } from './init/prompter.js';
import { existingFiles, planScaffold, writeScaffold, type ScaffoldPlan } from './init/scaffold.js';
import { GRAPH_TEMPLATE_FILE, graphAgentFiles, isGraphTemplate, planGraphScaffold } from './init/graph-template.js';
import { loadGraphConfig } from '../lib/graph/yaml/parse-graph-config.js';
import { readFile } from 'node:fs/promises';
import { defaultAnswers, runWizard, type InitAnswers, type InitPreset } from './init/wizard.js';

/** Test seams of {@link runInit}. */
export interface InitDependencies {
  /** The prompter of the interactive path. Default: @inquirer/prompts on the terminal. */
  prompter?: Prompter;
  /** Force the interactive path on or off. Default: stdin is a terminal and `--yes` was not given. */
  interactive?: boolean;
}

function optionalString(args: CommandArguments, key: string): string | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new UsageError(`--${key} needs a value`);
  return value;
}

/** The values given on the command line, validated (typos in --template / --provider get a did-you-mean). */
export function presetFromArgs(args: CommandArguments): InitPreset {
  const preset: InitPreset = {};
  const template = optionalString(args, 'template');
  if (template !== undefined) preset.template = resolveTemplate(template);
  const provider = optionalString(args, 'provider');
  if (provider !== undefined) preset.provider = resolveProvider(provider);
  const name = optionalString(args, 'name');
  if (name !== undefined) {
    const problem = agentNameProblem(name);
    if (problem !== undefined) throw new UsageError(`--name: ${problem}`);
    preset.name = name.trim();
  }
  const model = optionalString(args, 'model');
  if (model !== undefined) {
    const problem = modelProblem(model);
    if (problem !== undefined) throw new UsageError(`--model: ${problem}`);
    preset.model = model.trim();
  }
  return preset;
}

/** Files listed for people: a folder's files collapsed into one line (`fixtures/ (13 files)`). */
function summariseFiles(files: readonly string[]): string[] {
  const lines: string[] = [];
  const folders = new Map<string, number>();
  for (const file of files) {
    const slash = file.indexOf('/');
    if (slash === -1) lines.push(file);
    else folders.set(file.slice(0, slash + 1), (folders.get(file.slice(0, slash + 1)) ?? 0) + 1);
  }
  for (const [folder, count] of folders) lines.push(count === 1 ? (files.find((file) => file.startsWith(folder)) ?? folder) : `${folder} (${count} files)`);
  return lines;
}

/**
 * `agentlib init [dir]`: writes agent.yaml (from a template, with the name, provider and model set)
 * and the tools it loads into `dir`, then validates the agent.yaml. Asks on a terminal; with
 * `--yes` or without a terminal it takes the flags and the defaults.
 */
export async function runInit(args: CommandArguments, context: CommandContext, dependencies: InitDependencies = {}): Promise<number> {
  const { io } = context;
  const cwd = io.cwd ?? process.cwd();
  const dir = resolve(cwd, optionalString(args, 'dir') ?? '.');
  const dirLabel = relative(cwd, dir) || '.';
  const force = args.force === true;
  const json = args.json === true;
  const preset = presetFromArgs(args);
  const interactive = dependencies.interactive ?? (io.stdin?.isTTY === true && args.yes !== true);

  let answers: InitAnswers;
  let plan: ScaffoldPlan;
  let overwrite = force;
  if (interactive) {
    const plans = new Map<string, ScaffoldPlan>();
    const planFor = (a: InitAnswers): ScaffoldPlan => {
      const key = JSON.stringify(a);
      const cached = plans.get(key) ?? planTemplate(a);
      plans.set(key, cached);
      return cached;
    };
    const result = await runWizard(dependencies.prompter ?? inquirerPrompter(io, context.signal), {
      preset,
      templates: templateChoices(),
      dirLabel,
      force,
      plan: (a) => {
        const files = planFor(a).files;
        return { files: files.map((file) => file.path), existing: existingFiles(dir, files) };
      },
    });
    if (!result.write) {
      writeLog(io, 'Nothing written.');
      return ExitCode.OK;
    }
    answers = result.answers;
    plan = planFor(answers);
    overwrite = result.overwrite;
  } else {
    answers = defaultAnswers(preset);
    plan = planTemplate(answers);
  }

  const existing = existingFiles(dir, plan.files);
  if (existing.length > 0 && !overwrite) {
    writeLog(io, `agentlib: not overwriting ${existing.length === 1 ? 'a file that exists' : `${existing.length} files that exist`} in ${dirLabel}: ${existing.join(', ')}`);
    writeLog(io, 'Pass --force to overwrite them, or choose another directory: agentlib init <dir>');
    return ExitCode.USAGE;
  }
  await mkdir(dir, { recursive: true });
  await writeScaffold(dir, plan.files);
  // must pass: a template that does not validate is a bug, reported like any invalid agent file
  const graph = isGraphTemplate(answers.template);
  if (graph) {
    await loadGraphConfig(join(dir, GRAPH_TEMPLATE_FILE), { env: io.env });
    for (const agent of graphAgentFiles(await readFile(join(dir, GRAPH_TEMPLATE_FILE), 'utf8'))) await loadAgentConfig(join(dir, agent), { env: io.env });
  } else {
    await loadAgentConfig(join(dir, TEMPLATE_FILE), { env: io.env });
  }

  const files = plan.files.map((file) => file.path);
  if (json) {
    writeJson(io, { dir, files, template: answers.template, name: answers.name, provider: answers.provider, model: answers.model, packages: plan.packages, valid: true });
    return ExitCode.OK;
  }
  if (graph) reportGraph(io, { ...answers, dirLabel, files, overwritten: existing, offlinePrompt: plan.offlinePrompt, install: agentlibInstall(dir) });
  else report(io, { ...answers, dirLabel, files, overwritten: existing, offlinePrompt: plan.offlinePrompt, evalReplay: plan.evalReplay, install: agentlibInstall(dir) });
  return ExitCode.OK;
}

/** The files of an agent or a graph template. */
function planTemplate(answers: InitAnswers): ScaffoldPlan {
  return isGraphTemplate(answers.template) ? planGraphScaffold(answers.template, answers) : planScaffold(answers.template, answers);
}

/** What `init` prints for a graph template: the files, then an offline run and resume of its cassette. */
function reportGraph(io: CliIO, summary: InitSummary): void {
  const cd = summary.dirLabel === '.' ? [] : [`cd ${summary.dirLabel}`];
  const prompt = summary.offlinePrompt ?? 'Hello!';
  const lines = [
    `Created graph "${summary.name}" (template ${summary.template}, ${summary.provider} ${summary.model}) in ${summary.dirLabel}:`,
    ...summariseFiles(summary.files).map((file) => `  ${file}`),
    ...(summary.overwritten.length > 0 ? [`Overwrote ${summary.overwritten.length === 1 ? 'a file' : `${summary.overwritten.length} files`} that existed.`] : []),
    `${GRAPH_TEMPLATE_FILE} and its agent files are valid.`,
    '',
    'Next steps:',
    ...[
      ...cd,
      `agentlib graph run ${GRAPH_TEMPLATE_FILE} "${prompt}" --replay cassette.jsonl   # offline, no API key: a scripted run (PROVENANCE.md); it stops at the review`,
      'agentlib graph resume <interrupt-id> --response yes --replay cassette.jsonl   # the interrupt id the run printed',
      `${providerSetup(summary.provider, summary.model)}   # then run it live, or serve it: agentlib serve ${GRAPH_TEMPLATE_FILE}`,
    ].map((step) => `  ${step}`),
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
}

interface InitSummary extends InitAnswers {
  dirLabel: string;
  files: readonly string[];
  overwritten: readonly string[];
  offlinePrompt: string | undefined;
  /** What the eval suite replays (agent templates; see nextSteps). */
  evalReplay?: string | undefined;
  install: AgentlibInstall;
}

function report(io: CliIO, summary: InitSummary): void {
  const lines = [
    `Created agent "${summary.name}" (template ${summary.template}, ${summary.provider} ${summary.model}) in ${summary.dirLabel}:`,
    ...summariseFiles(summary.files).map((file) => `  ${file}`),
  ];
  if (summary.overwritten.length > 0) lines.push(`Overwrote ${summary.overwritten.length === 1 ? 'a file' : `${summary.overwritten.length} files`} that existed.`);
  lines.push(`${TEMPLATE_FILE} is valid. tools.ts is yours to edit.`, '', 'Next steps:');
  const { dirLabel, template, provider, model, offlinePrompt, evalReplay, install } = summary;
  lines.push(...nextSteps({ dirLabel, template, provider, model, offlinePrompt, evalReplay, install }).map((step) => `  ${step}`));
  io.stdout.write(`${lines.join('\n')}\n`);
}

/** `agentlib init [dir]`. */
export function run(args: CommandArguments, context: CommandContext): Promise<number> {
  return runInit(args, context);
}
