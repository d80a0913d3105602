/** Feature flags: parts of the product read these to switch themselves on or off. */

export const FEATURE_FLAGS = {
  authentication: {
    providers: ["email", "google"] as const,
    requireEmailVerification: true
  },
  payments: {
    provider: "card" as const,
    currency: "USD" as const
  },
  blog: {
    comments: false,
    analytics: false
  },
  feedback: {
    emailNotifications: true,
    fileUploads: true
  },
  /** Analytics by a third-party provider; no third-party script is loaded while this is off. */
  analytics: {
    enabled: false
  }
} as const

