let lastMs = Number.NaN;
let lastIso = '';

/** The current time as ISO 8601, formatted at most once per millisecond (a busy server logs many lines per ms). */
function isoNow(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastIso = new Date(now).toISOString();
  }
  return lastIso;
}

/**
 * One access-log line, `<ISO time> <method> <path> <status> <ms>ms`, where ms is the time from
 * `startedAt` (a `performance.now()` reading taken when the request arrived) to the response.
 */
export function accessLogLine(method: string, path: string, status: number, startedAt: number): string {
  return `${isoNow()} ${method} ${path} ${status} ${Math.round(performance.now() - startedAt)}ms`;
}

/**
 * Batches lines for a sink whose every write costs a system call (stderr on a pipe or a file is
 * written synchronously): lines logged during one event-loop turn go out in one write, at the end
 * of that turn. `flush()` writes what is pending at once.
 */
export function batchedLines(write: (text: string) => void): { log: (line: string) => void; flush: () => void } {
  let pending = '';
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    write(text);
  };
  return {
    log: (line) => {
      pending += `${line}\n`;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
