import { writeJson, writeLog } from '../../cli/output.js';
import { UsageError } from '../../cli/usage-error.js';
import { AgentUsage } from '../../lib/core/usage.js';
import { indexSources } from '../../lib/rag/indexer.js';
import type { CommandArguments, CommandContext } from '../command-module.js';
import { plainProgress, progressBar, wantsProgressBar } from './index-progress.js';
import { openIndex } from './open-index.js';

/** `agentlib rag index <inputs..>`: indexes files, folders, globs and URLs; prints what it did. */
export async function runIndex(args: CommandArguments, inputs: readonly string[], context: CommandContext): Promise<number> {
  const { io } = context;
  if (inputs.length === 0) throw new UsageError('rag index needs at least one file, folder, glob or URL: agentlib rag index docs/ --store sqlite://kb.db');
  const cwd = io.cwd ?? process.cwd();
  const { kb, url } = await openIndex(args, cwd);
  const usage = new AgentUsage();
  const view = args.json === true ? undefined : wantsProgressBar(io) ? progressBar(io) : plainProgress(io);
  const started = Date.now();
  try {
    const report = await indexSources(kb, inputs, {
      cwd,
      force: args.force === true,
      allowPrivateUrls: args.allowPrivateUrls === true,
      signal: context.signal,
      usage,
      ...(view === undefined ? {} : { onProgress: (p: Parameters<typeof view.update>[0]) => view.update(p) }),
    });
    view?.stop();
    const embedding = { tokens: usage.embeddingTokens, costUsd: usage.totalEmbeddingCostUsd };
    if (args.json === true) {
      writeJson(io, { store: url, embedder: kb.embedder.name, indexed: report.indexed, skipped: report.skipped, chunks: report.chunks, removed: report.removed, embedding, durationMs: Date.now() - started });
    } else {
      const cost = embedding.tokens > 0 ? ` · ${embedding.tokens} embedding tokens, $${embedding.costUsd.toFixed(6)}` : '';
      writeLog(io, `Indexed ${report.indexed.length} file(s), ${report.chunks} chunks into ${url} (${kb.embedder.name}); ${report.skipped.length} unchanged${report.removed > 0 ? `, ${report.removed} old chunks replaced` : ''}${cost}.`);
    }
    return 0;
  } finally {
    await kb.store.close();
  }
}
