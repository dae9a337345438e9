/**
 * A place eval stores keep named JSON documents (a baseline report, an output snapshot): one
 * collection (`kind`) of documents by id. Ids are store ids (REFERENCE.md §7,
 * `^[A-Za-z0-9_.-]{1,128}$`, no `..`); every backend refuses others with InvalidStoreIdError before
 * touching its storage. Bodies are opaque text (the typed stores encode versioned records).
 */
export interface DocumentBackend {
  /** The document's text, or undefined when there is none. */
  get(id: string): Promise<string | undefined>;
  /** Writes (or replaces) the document. */
  put(id: string, body: string): Promise<void>;
  /** Removes the document; true when it existed. */
  delete(id: string): Promise<boolean>;
  /** Every id of the collection, sorted. */
  list(): Promise<string[]>;
  /** Gives the connection back (the storage module's shared pools stay open for other users). */
  close(): Promise<void>;
  /** Where the documents live, for messages (`sqlite:///…/agentlib.db`, a directory; no password). */
  readonly where: string;
}

/** A collection name: lowercase letters, digits and `-` (it becomes a table value, a key part or a folder). */
export function checkKind(kind: string): string {
  if (!/^[a-z][a-z0-9-]{0,40}$/.test(kind)) throw new RangeError(`document collection "${kind}" must be lowercase letters, digits and "-"`);
  return kind;
}

/** Runs `work` and returns its value as a promise (a throw becomes a rejection, as with the async backends). */
export function settle<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
