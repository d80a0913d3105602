
import { type Clock, HOUR_MS } from "~core/time"
import { takeAll, type LimitStore } from "../limits/limit-store"

/** Confirmation e-mails of the feedback form: anyone may name any address, so they are few per address and in all. */
export const FEEDBACK_CONFIRMATIONS_PER_ADDRESS = 3

export const FEEDBACK_CONFIRMATIONS_PER_SERVER = 200

export const FEEDBACK_CONFIRMATION_WINDOW_MS = HOUR_MS

/**
 * How many feedback confirmations may go out: anyone can have one sent to any address, so each
 * address gets a few per window and the whole service a bounded number, whatever the sender's IP
 * and whichever API instance takes the form.
 */
export class ConfirmationLimit {
  constructor(
    private readonly limits: { perAddress: number; perServer: number },
    private readonly store: LimitStore,
    private readonly clock: Clock
  ) {}

  /** Counts a confirmation to the address and answers null, or names the limit that refuses it (counting nothing). */
  async take(address: string): Promise<"address" | "server" | null> {
    const refused = await takeAll(
      this.store,
      [
        { key: `feedback-confirmation:address:${address.trim().toLowerCase()}`, max: this.limits.perAddress, windowMs: FEEDBACK_CONFIRMATION_WINDOW_MS },
        { key: "feedback-confirmation:all", max: this.limits.perServer, windowMs: FEEDBACK_CONFIRMATION_WINDOW_MS }
      ],
      this.clock()
    )
    if (!refused) return null
    return refused.refusedBy === 0 ? "address" : "server"
  }
}
