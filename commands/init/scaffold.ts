import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { templatesDirectory, TEMPLATE_FILE, type TemplateOptions } from '../../lib/config/templates.js';
import { setAgentValues, BLANK_AGENT_YAML, type AgentYamlValues } from './agent-yaml.js';
import { BLANK_TOOLS_TS } from './blank-tools.js';
import { CASSETTE_FILE, cassettePrompt, EVAL_CASSETTES_DIR, PROVENANCE_FILE, retargetCassette } from './cassette.js';
import { BLANK_TEMPLATE } from './choices.js';

/** A file `agentlib init` writes, relative to the target directory (with `/` separators). */
export interface PlannedFile {
  path: string;
  content: string | Uint8Array;
}

/** The folder the template's shared helpers (`templates/_shared`) are copied to, next to tools.ts. */
export const SHARED_DIR = '_shared';

/** The folder of the blank agent's cassette and its PROVENANCE.md (no agent.yaml: not a template of its own). */
export const BLANK_DIR = '_blank';

/** Files of a template folder that are not copied: the agent.yaml is rewritten, the README stays in the package. */
const NOT_COPIED = new Set([TEMPLATE_FILE, 'README.md']);

/** SQLite's side files of a database that is open right now (a template's index.db in use): never copied. */
const SQLITE_SIDE_FILE = /\.db-(?:wal|shm|journal)$/;

/**
 * The eval suite each template (and the blank agent) ships: `agentlib eval run eval.yaml --replay
 * eval-cassettes` (per-case cassettes), or `--replay cassette.jsonl` where there is no such folder.
 */
export const EVAL_FILE = 'eval.yaml';

const SHARED_IMPORT = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])\.\.\/_shared\//g;
const SHARED_SPECIFIER = /['"]\.\/_shared\/([\w.-]+)\.js['"]/g;
const LOCAL_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]\.\/([\w.-]+)\.js['"]/g;
const BARE_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\.resolve\(\s*)['"]((?:@[\w.-]+\/)?[\w.-]+)(?:\/[^'"]*)?['"]/g;

function toPosix(path: string): string {
  return path.split(sep).join('/');
}

/** Every file under `dir` (recursive), as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => toPosix(relative(dir, join(entry.parentPath, entry.name))))
    .sort();
}

/** Rewrites `'../_shared/x.js'` imports of a template module to `'./_shared/x.js'`. */
export function rewriteSharedImports(source: string): string {
  return source.replace(SHARED_IMPORT, `$1$2./${SHARED_DIR}/`);
}

/** Names of the modules a source imports from its own folder (`'./name.js'` → `name`). */
function localImports(source: string): string[] {
  return [...source.matchAll(LOCAL_SPECIFIER)].map((match) => match[1] ?? '').filter((name) => name !== '');
}

/** The packages a set of sources import (bare specifiers, not node: builtins), sorted. */
export function packageImports(sources: readonly string[]): string[] {
  const names = new Set<string>();
  for (const source of sources) {
    for (const match of source.matchAll(BARE_SPECIFIER)) {
      const name = match[1];
      if (name !== undefined && !name.startsWith('node:') && !name.startsWith('.')) names.add(name);
    }
  }
  return [...names].sort();
}

/** The `_shared` helpers a template needs: the ones its modules import, and theirs in turn. */
function sharedHelpers(sharedDir: string, sources: readonly string[]): string[] {
  const needed = new Set<string>();
  const queue = sources.flatMap((source) => [...source.matchAll(SHARED_SPECIFIER)].map((match) => match[1] ?? ''));
  while (queue.length > 0) {
    const name = queue.pop() as string;
    if (needed.has(name) || !existsSync(join(sharedDir, `${name}.ts`))) continue;
    needed.add(name);
    queue.push(...localImports(readFileSync(join(sharedDir, `${name}.ts`), 'utf8')));
  }
  return [...needed].sort();
}

/** What `init` writes for a template, and the packages the written code imports. */
export interface ScaffoldPlan {
  files: PlannedFile[];
  packages: string[];
  /** The prompt the written cassette replays (the offline run of the next steps). */
  offlinePrompt?: string;
  /** What the written eval suite replays: its per-case cassette folder, when the template has one. */
  evalReplay?: string;
}

/** The cassette file of a template folder, made to replay for `values`, and the prompt it holds. */
function cassetteFile(dir: string, values: AgentYamlValues): { file: PlannedFile; prompt: string | undefined } {
  const text = readFileSync(join(dir, CASSETTE_FILE), 'utf8');
  return { file: { path: CASSETTE_FILE, content: retargetCassette(text, values) }, prompt: cassettePrompt(text) };
}

function withPrompt(plan: ScaffoldPlan, prompt: string | undefined): ScaffoldPlan {
  return prompt === undefined ? plan : { ...plan, offlinePrompt: prompt };
}

/**
 * The files `agentlib init` writes for `template` (`blank` or a bundled template), without
 * touching the disk: agent.yaml with the values set, the template's modules (tools.ts and its
 * local helpers) with `../_shared/` imports pointed at a copied `./_shared/`, the shared helpers they
 * need, the template's cassette made to replay for the chosen provider and model (see
 * retargetCassette) with its PROVENANCE.md, and the template's other files such as `fixtures/` and
 * `index.db` (the rag_chatbot template's shipped index; SQLite's -wal/-shm side files are skipped)
 * (found relative to `import.meta.url`, so they keep working next to the copied tools).
 */
export function planScaffold(template: string, values: AgentYamlValues, options: TemplateOptions = {}): ScaffoldPlan {
  const root = templatesDirectory(options);
  if (template === BLANK_TEMPLATE) {
    const blank = join(root, BLANK_DIR);
    const cassette = cassetteFile(blank, values);
    const plan: ScaffoldPlan = {
      files: [
        { path: TEMPLATE_FILE, content: setAgentValues(BLANK_AGENT_YAML, values) },
        { path: 'tools.ts', content: BLANK_TOOLS_TS },
        cassette.file,
        { path: PROVENANCE_FILE, content: readFileSync(join(blank, PROVENANCE_FILE)) },
        { path: EVAL_FILE, content: readFileSync(join(blank, EVAL_FILE)) },
      ],
      packages: packageImports([BLANK_TOOLS_TS]),
    };
    return withPrompt(plan, cassette.prompt);
  }
  const dir = join(root, template);
  const files: PlannedFile[] = [{ path: TEMPLATE_FILE, content: setAgentValues(readFileSync(join(dir, TEMPLATE_FILE), 'utf8'), values) }];
  const sources: string[] = [];
  let prompt: string | undefined;
  let evalCassettes = false;
  for (const path of filesUnder(dir)) {
    if (NOT_COPIED.has(path) || SQLITE_SIDE_FILE.test(path)) continue;
    if (path === CASSETTE_FILE) {
      const cassette = cassetteFile(dir, values);
      files.push(cassette.file);
      prompt = cassette.prompt;
    } else if (path.startsWith(`${EVAL_CASSETTES_DIR}/`) && path.endsWith('.jsonl')) {
      // the eval suite's per-case cassettes replay for the chosen provider and model too
      files.push({ path, content: retargetCassette(readFileSync(join(dir, path), 'utf8'), values) });
      evalCassettes = true;
    } else if (path.endsWith('.ts') && !path.includes('/')) {
      const source = rewriteSharedImports(readFileSync(join(dir, path), 'utf8'));
      sources.push(source);
      files.push({ path, content: source });
    } else {
      files.push({ path, content: readFileSync(join(dir, path)) });
    }
  }
  const sharedDir = join(root, SHARED_DIR);
  for (const name of sharedHelpers(sharedDir, sources)) {
    const source = readFileSync(join(sharedDir, `${name}.ts`), 'utf8');
    sources.push(source);
    files.push({ path: `${SHARED_DIR}/${name}.ts`, content: source });
  }
  return withPrompt({ files, packages: packageImports(sources), ...(evalCassettes ? { evalReplay: EVAL_CASSETTES_DIR } : {}) }, prompt);
}

/** The planned files that already exist in `dir`. */
export function existingFiles(dir: string, files: readonly PlannedFile[]): string[] {
  return files.filter((file) => existsSync(join(dir, file.path))).map((file) => file.path);
}

/** Writes the planned files into `dir`, creating folders as needed. */
export async function writeScaffold(dir: string, files: readonly PlannedFile[]): Promise<void> {
  for (const file of files) {
    const path = join(dir, file.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.content);
  }
}
