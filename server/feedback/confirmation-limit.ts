import { FEEDBACK_CONFIRMATION_WINDOW_MS } from "~core/limits"

import type { Clock } from "../app"
import { SlidingWindowCounter } from "../http/sliding-window"

/**
 * How many feedback confirmations may go out: anyone can have one sent to any address, so each
 * address gets a few per window and the whole server a bounded number, whatever the sender's IP.
 */
export class ConfirmationLimit {
  private readonly perAddress: SlidingWindowCounter
  private readonly perServer: SlidingWindowCounter

  constructor(limits: { perAddress: number; perServer: number }, clock: Clock) {
    this.perAddress = new SlidingWindowCounter(limits.perAddress, FEEDBACK_CONFIRMATION_WINDOW_MS, clock)
    this.perServer = new SlidingWindowCounter(limits.perServer, FEEDBACK_CONFIRMATION_WINDOW_MS, clock)
  }

  /** Counts a confirmation to the address and answers null, or names the limit that refuses it (counting nothing). */
  take(address: string): "address" | "server" | null {
    const key = address.trim().toLowerCase()
    if (!this.perAddress.available(key)) return "address"
    if (!this.perServer.available("")) return "server"
    this.perAddress.record(key)
    this.perServer.record("")
    return null
  }
}
