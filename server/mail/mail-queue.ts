import type { FastifyBaseLogger } from "fastify"

declare module "fastify" {
  interface FastifyInstance {
    mailQueue: MailQueue
  }
}

/**
 * Mail that must not hold up an answer: a job runs after the request that queued it has been
 * answered, one job at a time, so how long the look-up and the sending take (or whether there was
 * anything to send) never shows in the answer. The app waits for the queue when it closes.
 */
export class MailQueue {
  private tail: Promise<void> = Promise.resolve()

  constructor(private readonly log: FastifyBaseLogger) {}

  /** Runs `job` after the jobs queued before it; a failure is logged under `what`, never with the mail's content. */
  enqueue(what: string, job: () => Promise<unknown>): void {
    this.tail = this.tail
      // A macrotask later, so the queuing request has written its answer before the job starts.
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(job)
      .then(
        () => undefined,
        (error: unknown) => this.log.error({ err: error }, `a queued ${what} email could not be sent`)
      )
  }

  /** Settles once every job queued so far has run. */
  idle(): Promise<void> {
    return this.tail
  }
}
