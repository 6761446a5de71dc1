// Page views are written in batches so a request never waits for the database: rows wait in a bounded
// in-memory buffer and leave in one insert per batch. What is lost is said here once: rows still buffered
// when the process crashes (at most flushMs of views, or one failed batch); a clean close writes them all.

/** BatchWriterOptions says where rows go, how often, and how many may wait. */
export interface BatchWriterOptions<Row> {
  /** write stores one batch (one statement); a rejected batch is dropped and reported, never retried. */
  write(rows: Row[]): Promise<void>;
  /** flushMs is the longest a row waits before its batch is written. */
  flushMs: number;
  /** maxBatch is the most rows one write takes; reaching it writes at once. */
  maxBatch: number;
  /** maxBuffered bounds the rows waiting (written or not yet); beyond it new rows are dropped. */
  maxBuffered: number;
  /** onDropped is told how many rows were dropped since the last report (at most once per flushMs). */
  onDropped(count: number): void;
  /** onWriteError is told a batch failed and how many rows it lost. */
  onWriteError(error: unknown, lost: number): void;
}

/** BatchWriterCounts are the writer's running totals, for logs, tests and the bench. */
export interface BatchWriterCounts {
  buffered: number;
  written: number;
  dropped: number;
  failed: number;
}

/** BatchWriter buffers rows and writes them in batches. */
export interface BatchWriter<Row> {
  /** add buffers row and says whether it was kept (false: buffer full or writer closed, counted). */
  add(row: Row): boolean;
  /** flush writes every row buffered so far (and waits for a write in flight). */
  flush(): Promise<void>;
  /** close stops the timer and writes what is buffered; rows added afterwards are dropped. */
  close(): Promise<void>;
  counts(): BatchWriterCounts;
}

/** createBatchWriter returns a bounded buffer that writes one batch at a time. */
export function createBatchWriter<Row>(options: BatchWriterOptions<Row>): BatchWriter<Row> {
  const rows: Row[] = [];
  const totals = { written: 0, dropped: 0, failed: 0 };
  let unreported = 0;
  let inFlight: Promise<void> | null = null;
  let inFlightCount = 0;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  function reportDrops(): void {
    if (unreported === 0) return;
    options.onDropped(unreported);
    unreported = 0;
  }

  function schedule(): void {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = null;
      reportDrops();
      void flushAll();
    }, options.flushMs);
    // An idle buffer must not keep the process alive; close() writes what is left.
    timer.unref();
  }

  async function writeOne(): Promise<void> {
    while (inFlight) await inFlight;
    const batch = rows.splice(0, options.maxBatch);
    if (batch.length === 0) return;
    inFlightCount = batch.length;
    inFlight = options.write(batch).then(
      () => {
        totals.written += batch.length;
      },
      (error: unknown) => {
        totals.failed += batch.length;
        options.onWriteError(error, batch.length);
      },
    );
    try {
      await inFlight;
    } finally {
      inFlight = null;
      inFlightCount = 0;
    }
  }

  async function flushAll(): Promise<void> {
    do await writeOne();
    while (rows.length > 0);
  }

  return {
    add(row) {
      if (closed || rows.length + inFlightCount >= options.maxBuffered) {
        totals.dropped += 1;
        unreported += 1;
        schedule();
        if (closed) reportDrops();
        return false;
      }
      rows.push(row);
      if (rows.length >= options.maxBatch && !inFlight) void flushAll();
      else schedule();
      return true;
    },
    flush: flushAll,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await flushAll();
      reportDrops();
    },
    counts: () => ({ buffered: rows.length + inFlightCount, ...totals }),
  };
}
