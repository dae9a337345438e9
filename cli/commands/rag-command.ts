import type { CommandDescriptor } from '../command-descriptor.js';

/** `agentlib rag`: options only; the implementation (commands/rag.ts) loads when it runs. */
export const ragCommand: CommandDescriptor = {
  name: 'rag',
  positionals: '<action> [inputs..]',
  description: 'Index documents into a vector store, search them, list what is indexed: index, search, ls',
  examples: [
    ['$0 rag index templates/rag_chatbot/fixtures/docs --store sqlite://kb.db', 'chunk, embed and store the Markdown/text/HTML/PDF files of a folder (unchanged files are skipped when run again)'],
    ['$0 rag ls --store sqlite://kb.db', 'every index (table) in the store with its size: chunks, sources, characters, bytes, embedder'],
  ],
  builder: (yargs) =>
    yargs
      .example('$0 rag index "templates/**/docs/*.md" --store lancedb://.agentlib/lance', 'a glob into a LanceDB directory (http(s) URLs work too)')
      .epilogue(
        [
          'The sources of one index:',
          '  agentlib rag ls --store sqlite://kb.db --table agentlib_rag_vectors',
          'Search an index:',
          '  agentlib rag search "how much parental leave" --store sqlite://kb.db',
          '      the best passages, with scores and sources',
          '  agentlib rag search "laptop policy" --mode hybrid --top-k 5 --json',
          '      BM25 and vectors fused, as one JSON document',
          'Exit codes: 0 ok, 2 usage or configuration, 3 store or API failure,',
          '  4 a search found nothing.',
        ].join('\n'),
      )
      .positional('action', { type: 'string', describe: 'index (add files, folders, globs, URLs), search (a query), ls (the indexes of the store with sizes; with --table, the sources of one)' })
      .positional('inputs', { type: 'string', array: true, describe: 'index: files, folders, globs or http(s) URLs; search: the query' })
      .option('store', { type: 'string', describe: 'vector store URL: sqlite://[file.db], postgres://…, lancedb://dir, memory:// (default sqlite://, the .agentlib/agentlib.db file)' })
      .option('table', { type: 'string', describe: 'the index (table) in the store; default agentlib_rag_vectors (ls: list this index\'s sources instead of every index)' })
      .option('embedder', { type: 'string', describe: 'hashing[:dims] (offline, lexical; default), openai[:model], gemini[:model], ollama[:model], cohere[:model]; search must use the index\'s' })
      .option('chunk-size', { type: 'number', describe: 'index: characters per chunk (RecursiveTextSplitter; default 1000)' })
      .option('chunk-overlap', { type: 'number', describe: 'index: characters shared by neighbouring chunks (default 200)' })
      .option('force', { type: 'boolean', default: false, describe: 'index: re-index files even when their content hash is unchanged' })
      .option('allow-private-urls', { type: 'boolean', default: false, describe: 'index: let URLs reach loopback and private addresses' })
      .option('mode', { type: 'string', choices: ['vector', 'bm25', 'hybrid'], default: 'vector', describe: 'search: vector (embeddings), bm25 (keywords) or hybrid (both, RRF)' })
      .option('top-k', { alias: 'k', type: 'number', default: 3, describe: 'search: results to show' })
      .option('rerank', { type: 'string', choices: ['cohere', 'jina'], describe: 'search: rerank the candidates with an API reranker (CO_API_KEY / JINA_API_KEY)' })
      .option('filter', { type: 'string', describe: 'search: metadata filter as JSON, e.g. \'{"source":{"$in":["a.md","b.md"]}}\'' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON document' })
      .group(['store', 'table', 'embedder'], 'Index:')
      .group(['chunk-size', 'chunk-overlap', 'force', 'allow-private-urls'], 'rag index:')
      .group(['mode', 'top-k', 'rerank', 'filter'], 'rag search:')
      .group(['json'], 'Output:'),
  load: () => import('../../commands/rag.js'),
};
