/**
 * Side effects of edge requests (hits, log and 404 rows, expiry) run off the request path, one at
 * a time per store, each failure logged and dropped: a redirect never waits for its log row.
 */
import type { FastifyBaseLogger } from 'fastify';

export class WriteQueue {
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;

  private readonly log: FastifyBaseLogger;
  private readonly limit: number;
  constructor(log: FastifyBaseLogger, limit = 10_000) {
    this.log = log;
    this.limit = limit;
  }

  push(what: string, job: () => Promise<void>): void {
    // Under a flood the log rows are the first thing to give: past the limit they are dropped.
    if (this.pending >= this.limit) {
      this.log.warn({ what }, 'redirection edge write dropped: queue full');
      return;
    }
    this.pending++;
    this.tail = this.tail
      .then(job)
      .catch((err: unknown) => this.log.error({ err, what }, 'redirection edge write failed'))
      .finally(() => {
        this.pending--;
      });
  }

  /** Resolves when every write queued so far is done (tests, shutdown). */
  flush(): Promise<void> {
    return this.tail;
  }
}
