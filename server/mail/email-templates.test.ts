/** Names someone typed, as our e-mails show them: plain, one line, cut to a sane length. */
import { describe, expect, it } from "vitest"

import { EMAIL_NAME_MAX_LENGTH, EMAIL_TEMPLATES, plainName } from "./email-templates"

describe("plainName", () => {
  it("drops markup, line breaks, control and invisible characters, and keeps the words", () => {
    expect(plainName("Acme <img src=x onerror=alert(1)>")).toBe("Acme")
    expect(plainName("＜b＞Acme＜/b＞ Corp")).toBe("Acme Corp")
    expect(plainName("Eve\r\nBcc: victim@example.com\u2028\tx")).toBe("Eve Bcc: victim@example.com x")
    expect(plainName("gro\u202Eelgoo\u200Bg")).toBe("groelgoog")
    expect(plainName("Ada <3 Babbage")).toBe("Ada 3 Babbage")
    expect(plainName("<b></b>")).toBe("")
    expect(plainName("  Grace   Hopper ")).toBe("Grace Hopper")
  })

  it(`cuts a name longer than ${EMAIL_NAME_MAX_LENGTH} characters with an ellipsis, and leaves shorter ones whole`, () => {
    const long = "Click https://prize.example.com now to claim the reward we hold for you today"
    const cut = plainName(long)
    expect(cut).toBe(`${long.slice(0, EMAIL_NAME_MAX_LENGTH - 1).trimEnd()}…`)
    expect(Array.from(cut).length).toBeLessThanOrEqual(EMAIL_NAME_MAX_LENGTH)
    expect(plainName("y".repeat(80))).toBe(`${"y".repeat(EMAIL_NAME_MAX_LENGTH - 1)}…`)
    expect(plainName("x".repeat(EMAIL_NAME_MAX_LENGTH))).toBe("x".repeat(EMAIL_NAME_MAX_LENGTH))
  })
})

describe("the organisation invitation", () => {
  const invitation = (organizationName: string, inviterName: string) =>
    EMAIL_TEMPLATES.organizationInvitation({ organizationName, inviterName, inviterEmail: "eve@example.com", role: "member", link: "https://iqa.example.com/organization/join?code=abc", validDays: 7 })

  it("says who sent it (name and address), for which organisation, and that it may be ignored", () => {
    const mail = invitation("Acme", "Eve Adams")
    expect(mail.subject).toBe("Eve Adams invited you to Acme on Image Query AI")
    expect(mail.text).toContain("Eve Adams (eve@example.com) invited you to join the organisation Acme on Image Query AI as a member.")
    expect(mail.text).toContain("If you do not know Eve Adams or did not expect this invitation, you can ignore this e-mail")
  })

  it("carries hostile names as plain, short text in the subject and the body", () => {
    const mail = invitation("Acme <img src=x onerror=alert(1)>", "orgadmin\nBcc: all@example.com <a href='https://evil.example'>prize</a>")
    expect(mail.subject).toBe("orgadmin Bcc: all@example.com prize invited you to Acme on Image Query AI")
    for (const part of [mail.subject, mail.text]) expect(part).not.toMatch(/[<>]|onerror|href/)
    expect(mail.subject).not.toContain("\n")
    expect(invitation("<b></b>", "<i></i>").subject).toBe("Someone invited you to an organisation on Image Query AI")
  })
})
