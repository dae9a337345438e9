import { EventEmitter } from 'node:events';

/** A terminal output stream for Ink: records every write; `columns` × `rows`, `isTTY`. */
export class FakeStdout extends EventEmitter {
  readonly isTTY = true;
  readonly writes: string[] = [];
  constructor(
    public columns = 100,
    public rows = 30,
    private readonly onWrite?: (chunk: string) => void,
  ) {
    super();
  }
  write = (chunk: string | Uint8Array): boolean => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    this.writes.push(text);
    this.onWrite?.(text);
    return true;
  };
  get output(): string {
    return this.writes.join('');
  }
}

/** A TTY input stream for Ink: `press(keys)` delivers keys the way a terminal would. */
export class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  private pending: string[] = [];
  press(data: string): void {
    this.pending.push(data);
    this.emit('readable');
  }
  read = (): string | null => this.pending.shift() ?? null;
  setEncoding(): this {
    return this;
  }
  setRawMode(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}

/** The two fakes typed as the Node streams `runTraceViewer` takes. */
export function fakeTerminal(columns = 100, rows = 30, onWrite?: (chunk: string) => void): { stdin: FakeStdin; stdout: FakeStdout; streams: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream } } {
  const stdin = new FakeStdin();
  const stdout = new FakeStdout(columns, rows, onWrite);
  return { stdin, stdout, streams: { stdin: stdin as unknown as NodeJS.ReadStream, stdout: stdout as unknown as NodeJS.WriteStream } };
}
