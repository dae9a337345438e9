import type { CommandDescriptor } from '../command-descriptor.js';

/** `agentlib graph`: options only; the implementation (commands/graph.ts) loads when it runs. */
export const graphCommand: CommandDescriptor = {
  name: 'graph',
  positionals: '<action> [args..]',
  description: 'Multi-agent graphs: render, run, resume an interrupt, list checkpoints, fork (time travel)',
  builder: (yargs) =>
    yargs
      .positional('action', { type: 'string', describe: 'render <graph.yaml> | run <graph.yaml> [prompt] | resume <interruptId> | checkpoints ls|show|rm [id] | fork <checkpointId>' })
      .positional('args', { type: 'string', array: true, describe: 'the action\'s arguments' })
      .option('format', { type: 'string', choices: ['mermaid', 'ascii', 'json'], default: 'mermaid', describe: 'render: Mermaid text, boxes and arrows for a terminal (ascii), or JSON' })
      .option('output-format', { type: 'string', choices: ['text', 'json', 'stream-json'], default: 'text', describe: 'run/resume/fork: text, one JSON result, or one JSON event per line' })
      .option('checkpoint', { type: 'string', default: 'sqlite://', describe: 'the checkpoint store: sqlite://[path] (default .agentlib/agentlib.db), postgres://…, file://dir, memory://' })
      .option('thread', { type: 'string', describe: 'run: the thread id; checkpoints: the thread to list or remove' })
      .option('response', { type: 'string', describe: 'resume: the answer (JSON if it parses, else the text)' })
      .option('take-over', { type: 'boolean', describe: 'resume: answer an interrupt another resume claimed (when that process died before the run went on)' })
      .option('graph', { type: 'string', describe: 'resume/fork: the graph file (default: the one the run was started with)' })
      .option('set', { type: 'string', array: true, describe: 'fork: key=value set in state.data (value parsed as JSON when it parses)' })
      .option('record', { type: 'string', describe: 'run/resume/fork: record every provider call of the agent nodes to this cassette (JSONL)' })
      .option('trace', { type: 'string', describe: 'run/resume/fork: write the trace here (default .agentlib/traces/<graph run>.jsonl; --no-trace: none)' })
      .option('replay', { type: 'string', describe: 'run/resume/fork: answer the agent nodes\' provider calls from this cassette (no network)' })
      .option('limit', { type: 'number', default: 20, describe: 'checkpoints ls: at most this many' }),
  load: () => import('../../commands/graph.js'),
};
