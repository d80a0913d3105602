/**
 * The e-mail templates, each with a subject and a plain-text body. Bodies are plain text on
 * purpose: nothing a user typed can become markup in a mail client. Names someone typed go through
 * plainName: one short line, so that a name cannot bring a message of its own into a mail we send.
 */
import { COMPANY, PRODUCT_NAME } from "~core/company"

export interface EmailContent {
  subject: string
  text: string
}

/** The most characters of a typed name an e-mail shows, the ellipsis of a longer one included. */
export const EMAIL_NAME_MAX_LENGTH = 60

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" })

/**
 * A name someone typed (an account's, an organisation's, a key's) as an e-mail shows it: plain text on one line.
 * Tags are dropped, and the angle brackets left over ("<3"); line breaks and control characters become spaces, invisible
 * formatting characters (bidirectional overrides, zero-width ones) go; runs of spaces become one; a longer name is cut
 * to EMAIL_NAME_MAX_LENGTH characters ending in an ellipsis. Empty when nothing readable is left.
 */
export function plainName(name: string): string {
  const plain = name
    // Full-width and other look-alike forms first, so that "＜img＞" is a tag like "<img>".
    .normalize("NFKC")
    .replace(/\p{Cf}/gu, "")
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, " ")
    .replace(/<\/?[\p{L}!?][^<>]*>/gu, " ")
    .replace(/[<>]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
  const characters = Array.from(graphemes.segment(plain), (part) => part.segment)
  return characters.length <= EMAIL_NAME_MAX_LENGTH ? plain : `${characters.slice(0, EMAIL_NAME_MAX_LENGTH - 1).join("").trimEnd()}…`
}

const hello = (name: string) => `Hello ${plainName(name) || "there"},`

const signature = `— The ${PRODUCT_NAME} team\n${COMPANY.contact.support.email}`

export const EMAIL_TEMPLATES = {
  emailVerification({ name, link, expiresInHours }: { name: string; link: string; expiresInHours: number }): EmailContent {
    return {
      subject: `Verify your email for ${PRODUCT_NAME}`,
      text: [
        hello(name),
        "",
        `Thank you for signing up for ${PRODUCT_NAME}. Please confirm that this is your email address by opening the link below:`,
        "",
        link,
        "",
        `The link works once and expires in ${expiresInHours} hours. If you did not create an account, you can ignore this message.`,
        "",
        signature
      ].join("\n")
    }
  },

  welcome({ name, dashboardUrl }: { name: string; dashboardUrl: string }): EmailContent {
    return {
      subject: `Welcome to ${PRODUCT_NAME}`,
      text: [
        hello(name),
        "",
        `Your email is verified and your ${PRODUCT_NAME} account is ready. Install the extension, open any web page and right-click an image to analyse it.`,
        "",
        `Your dashboard: ${dashboardUrl}`,
        "",
        signature
      ].join("\n")
    }
  },

  /** `cardGiven`: a trial through Stripe's Checkout, which took a card that is charged when the trial ends. */
  subscriptionStarted({
    name,
    planName,
    trialEnds,
    dashboardUrl,
    cardGiven = false
  }: {
    name: string
    planName: string
    trialEnds: string | null
    dashboardUrl: string
    cardGiven?: boolean
  }): EmailContent {
    return {
      subject: trialEnds ? `Your ${PRODUCT_NAME} ${planName} trial has started` : `Your ${PRODUCT_NAME} ${planName} subscription is active`,
      text: [
        hello(name),
        "",
        trialEnds && cardGiven
          ? `Your free ${planName} trial has started, and nothing is charged during it. It ends on ${trialEnds}; then the card you gave is charged for ${planName} each month, unless you cancel before that date from your dashboard.`
          : trialEnds
            ? `Your free ${planName} trial has started. It ends on ${trialEnds}; your account then returns to the Free plan unless you subscribe. No card was asked for.`
            : `Thank you for subscribing. Your account is now on the ${planName} plan, and its AI request allowance applies at once.`,
        "",
        `Manage your subscription from your dashboard: ${dashboardUrl}`,
        "",
        signature
      ].join("\n")
    }
  },

  /** A trial Stripe started for a person who had had one: cancelled at once, before anything was charged. */
  trialRefused({ name, reason, pricingUrl }: { name: string; reason: "account" | "identity" | "card"; pricingUrl: string }): EmailContent {
    const why = {
      account: "This account (or an earlier account with the same email address) has already had the free trial",
      identity: "Your email address, or your Google account, has already been used for a free trial on another account",
      card: "That card has already been used for a free trial on another account"
    }[reason]
    return {
      subject: `Your ${PRODUCT_NAME} trial could not start`,
      text: [
        hello(name),
        "",
        `${why}, and the free trial is one per person. So we cancelled the new trial subscription at once. Nothing was charged, and nothing will be.`,
        "",
        `You can subscribe at any time from the pricing page: ${pricingUrl}`,
        "",
        signature
      ].join("\n")
    }
  },

  subscriptionCanceled({ name, planName, endsOn, dashboardUrl }: { name: string; planName: string; endsOn: string | null; dashboardUrl: string }): EmailContent {
    return {
      subject: `Your ${PRODUCT_NAME} ${planName} subscription is cancelled`,
      text: [
        hello(name),
        "",
        endsOn
          ? `Your ${planName} subscription is cancelled. You keep ${planName} until ${endsOn}; then your account moves to the Free plan and nothing more is charged.`
          : `Your ${planName} subscription has ended and your account is on the Free plan. Nothing more is charged.`,
        "",
        `Changed your mind? Resume or subscribe again from your dashboard: ${dashboardUrl}`,
        "",
        signature
      ].join("\n")
    }
  },

  paymentFailed({ name, planName, billingUrl }: { name: string; planName: string; billingUrl: string }): EmailContent {
    return {
      subject: `Your ${PRODUCT_NAME} payment failed`,
      text: [
        hello(name),
        "",
        `We could not take the payment for your ${planName} subscription. Your plan stays active while the payment is tried again; please update your card so that it is not cancelled.`,
        "",
        `Update your payment method: ${billingUrl}`,
        "",
        signature
      ].join("\n")
    }
  },

  subscriptionOnHold({ name, planName, billingUrl }: { name: string; planName: string; billingUrl: string }): EmailContent {
    return {
      subject: `Your ${PRODUCT_NAME} ${planName} subscription is on hold`,
      text: [
        hello(name),
        "",
        `The payment for your ${planName} subscription could not be taken, so your account is on the Free plan for now. Pay the open invoice and ${planName} comes back at once.`,
        "",
        `Pay the invoice or update your card: ${billingUrl}`,
        "",
        signature
      ].join("\n")
    }
  },

  /** Sent to the owner whenever a way to sign in is added: a stolen session must not add one unnoticed. */
  signInMethodAdded({ name, method, securityUrl }: { name: string; method: "Google" | "a password"; securityUrl: string }): EmailContent {
    return {
      subject: `${method === "Google" ? "Google sign-in was" : "A password was"} added to your ${PRODUCT_NAME} account`,
      text: [
        hello(name),
        "",
        method === "Google"
          ? `Your ${PRODUCT_NAME} account can now be signed in to with Google.`
          : `Your ${PRODUCT_NAME} account now has a password: it can be signed in to with your email address and that password.`,
        "",
        `If this was not you, sign in and remove it from your dashboard, change your password, and sign out everywhere: ${securityUrl}`,
        "",
        signature
      ].join("\n")
    }
  },

  signInMethodRemoved({ name, method, securityUrl }: { name: string; method: "Google" | "a password"; securityUrl: string }): EmailContent {
    return {
      subject: `${method === "Google" ? "Google sign-in was" : "The password was"} removed from your ${PRODUCT_NAME} account`,
      text: [
        hello(name),
        "",
        method === "Google"
          ? `Your ${PRODUCT_NAME} account can no longer be signed in to with Google. Every other session of the account was signed out.`
          : `Your ${PRODUCT_NAME} account no longer has a password: it is signed in to with Google only. Every other session of the account was signed out.`,
        "",
        `If this was not you, contact us at once at ${COMPANY.contact.support.email}, and check your account: ${securityUrl}`,
        "",
        signature
      ].join("\n")
    }
  },

  /** Two-step sign-in turned on or off, or a recovery code used to sign in: each told to the owner. */
  twoStepChanged({ name, change, codesLeft, securityUrl }: { name: string; change: "on" | "off" | "recovery-code"; codesLeft?: number; securityUrl: string }): EmailContent {
    const subjects = {
      on: "Two-step sign-in was turned on",
      off: "Two-step sign-in was turned off",
      "recovery-code": "A recovery code was used to sign in to your account"
    }
    const bodies = {
      on: `Your ${PRODUCT_NAME} account now asks for a code from your authenticator app after the password. Keep your recovery codes somewhere safe: each signs in once if you lose the app.`,
      off: `Your ${PRODUCT_NAME} account no longer asks for a code from an authenticator app when you sign in.`,
      "recovery-code": `A recovery code was used to sign in to your ${PRODUCT_NAME} account. ${codesLeft ?? 0} of your recovery codes are left; you can replace them all from your dashboard.`
    }
    return {
      subject: subjects[change],
      text: [hello(name), "", bodies[change], "", `If this was not you, change your password and sign out everywhere at once: ${securityUrl}`, "", signature].join("\n")
    }
  },

  /** A passkey added to or removed from the account, told to the owner: a stolen session must not add one unnoticed. */
  passkeyChanged({ name, passkeyName, change, securityUrl }: { name: string; passkeyName: string; change: "added" | "removed"; securityUrl: string }): EmailContent {
    const passkey = plainName(passkeyName)
    const body =
      change === "added"
        ? `The passkey '${passkey}' can now sign in to your ${PRODUCT_NAME} account on its own, with the fingerprint, face or PIN that unlocks it.`
        : `The passkey '${passkey}' can no longer sign in to your ${PRODUCT_NAME} account.`
    return {
      subject: `A passkey '${passkey}' was ${change}`,
      text: [hello(name), "", body, "", `If this was not you, change your password and sign out everywhere at once: ${securityUrl}`, "", signature].join("\n")
    }
  },

  passwordReset({ name, link, expiresInMinutes }: { name: string; link: string; expiresInMinutes: number }): EmailContent {
    return {
      subject: `Reset your ${PRODUCT_NAME} password`,
      text: [
        hello(name),
        "",
        "We received a request to reset the password of your account. Choose a new password here:",
        "",
        link,
        "",
        `The link works once and expires in ${expiresInMinutes} minutes. If you did not ask for this, ignore this message: your password stays as it is.`,
        "",
        signature
      ].join("\n")
    }
  },

  /** Sent to the owner whenever an API key is made: a stolen session must not make one unnoticed. */
  apiKeyCreated({ name, keyName: typedKeyName, prefix, keysUrl }: { name: string; keyName: string; prefix: string; keysUrl: string }): EmailContent {
    const keyName = plainName(typedKeyName)
    return {
      subject: `A new API key '${keyName}' was created`,
      text: [
        hello(name),
        "",
        `A new API key named '${keyName}' (${prefix}…) was created for your ${PRODUCT_NAME} account. It can call the ${PRODUCT_NAME} API as you, within your plan.`,
        "",
        `If this was not you, revoke it now, change your password and sign out everywhere: ${keysUrl}`,
        "",
        signature
      ].join("\n")
    }
  },

  apiKeyRevoked({ name, keyName: typedKeyName, prefix, keysUrl }: { name: string; keyName: string; prefix: string; keysUrl: string }): EmailContent {
    const keyName = plainName(typedKeyName)
    return {
      subject: `The API key '${keyName}' was revoked`,
      text: [
        hello(name),
        "",
        `The API key named '${keyName}' (${prefix}…) of your ${PRODUCT_NAME} account was revoked. Calls made with it are refused from now on.`,
        "",
        `Your keys: ${keysUrl}`,
        "",
        signature
      ].join("\n")
    }
  },

  /**
   * An invitation to an organisation, to an address its owner or an admin typed: it says who sent it (their name and
   * address) and for which organisation, and that whoever did not expect it may ignore it. The names are theirs, as
   * plainName shows them.
   */
  organizationInvitation(invitation: { organizationName: string; inviterName: string; inviterEmail: string; role: string; link: string; validDays: number }): EmailContent {
    const organizationName = plainName(invitation.organizationName) || "an organisation"
    const inviterName = plainName(invitation.inviterName) || "Someone"
    return {
      subject: `${inviterName} invited you to ${organizationName} on ${PRODUCT_NAME}`,
      text: [
        "Hello,",
        "",
        `${inviterName} (${invitation.inviterEmail}) invited you to join the organisation ${organizationName} on ${PRODUCT_NAME} as ${invitation.role === "admin" ? "an admin" : "a member"}. Its members share one plan: questions, translations and API calls draw from the organisation's monthly pool.`,
        "",
        "Accept the invitation here (sign in or create an account with this e-mail address first):",
        "",
        invitation.link,
        "",
        `The link works once and expires in ${invitation.validDays} days.`,
        "",
        `If you do not know ${inviterName} or did not expect this invitation, you can ignore this e-mail: nothing happens unless you accept it, and no account is made for you. ${PRODUCT_NAME} sent it because ${invitation.inviterEmail} typed your address.`,
        "",
        signature
      ].join("\n")
    }
  },

  /**
   * Anyone can have this sent to any address, so it carries no text of the sender's: quoting the
   * message would let strangers mail their own words from our address.
   */
  feedbackConfirmation({ imageCount }: { imageCount: number }): EmailContent {
    return {
      subject: `We received your feedback for ${PRODUCT_NAME}`,
      text: [
        "Hello,",
        "",
        "Thank you for your feedback. We will review it and get back to you soon.",
        ...(imageCount > 0 ? ["", `Attached images: ${imageCount}`] : []),
        "",
        signature
      ].join("\n")
    }
  },

  feedbackReply({ reply, originalMessage }: { reply: string; originalMessage: string }): EmailContent {
    return {
      subject: `A reply to your feedback for ${PRODUCT_NAME}`,
      text: [
        "Hello,",
        "",
        "We have replied to your feedback:",
        "",
        reply,
        "",
        "Your feedback:",
        "",
        quote(originalMessage),
        "",
        signature
      ].join("\n")
    }
  }
} as const

/** The user's own text, quoted as mail clients do. */
function quote(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => `> ${line}`)
    .join("\n")
}
