import { afterEach, describe, expect, it } from "vitest"

import { startTestApp, type TestApp } from "../test-kit"
import { clientAddressKey, proxyAddressProblem } from "./client-address"

describe("clientAddressKey", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2::a", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002:ffff:eeee:dddd:cccc", "2001:db8:1:2::/64"],
    ["2001:DB8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::ffff:198.51.100.4", "198.51.100.4"],
    ["::ffff:c633:6404", "198.51.100.4"],
    ["64:ff9b::192.0.2.33", "64:ff9b:0:0::/64"]
  ])("counts %s as %s", (ip, key) => {
    expect(clientAddressKey(ip)).toBe(key)
  })
})

describe("proxyAddressProblem", () => {
  it.each(["10.0.0.5", "10.0.1.0/24", "2001:db8::/48", "::1", "loopback", "uniquelocal"])("accepts %s", (entry) => {
    expect(proxyAddressProblem(entry)).toBeNull()
  })

  it.each(["proxy.example.com", "10.0.0.0/33", "2001:db8::/129", "10.0.0.0/8/1", "10.0.0.0/x", "*", ""])("refuses %s", (entry) => {
    expect(proxyAddressProblem(entry)).toMatch(/not an IP address|prefix length/)
  })
})

/** A cheap call under the e-mail look-up limit: 30 per client per 15 minutes. */
const LOOKUP_LIMIT = 30

describe("per-client limits behind a proxy", () => {
  let test: TestApp | undefined
  afterEach(async () => {
    await test?.close()
    test = undefined
  })

  /** Sends `count` look-ups at once and answers how many the per-client limit refused. */
  async function refusedOf(count: number, request: (index: number) => { remoteAddress: string; forwardedFor?: string }) {
    const answers = await Promise.all(
      Array.from({ length: count }, (_, index) => {
        const { remoteAddress, forwardedFor } = request(index)
        return test!.app.inject({
          method: "GET",
          url: "/api/auth/check-verification?email=someone@example.com",
          remoteAddress,
          headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {}
        })
      })
    )
    return answers.filter((answer) => answer.statusCode === 429).length
  }

  it("with one trusted hop, a client's own X-Forwarded-For entries do not make it someone else", async () => {
    test = await startTestApp({ TRUST_PROXY: "1" })
    // The proxy appends the address it saw; whatever the client wrote comes before it.
    const refused = await refusedOf(LOOKUP_LIMIT + 5, (index) => ({ remoteAddress: "10.0.0.5", forwardedFor: `198.51.100.${index}, 203.0.113.7` }))
    expect(refused).toBe(5)
    // Another client behind the same proxy has its own allowance.
    expect(await refusedOf(1, () => ({ remoteAddress: "10.0.0.5", forwardedFor: "203.0.113.8" }))).toBe(0)
  })

  it("with a proxy address list, only that proxy is believed", async () => {
    test = await startTestApp({ TRUST_PROXY: "10.0.0.0/24" })
    // A client reaching the server directly cannot pose as many clients.
    const direct = await refusedOf(LOOKUP_LIMIT + 5, (index) => ({ remoteAddress: "198.51.100.9", forwardedFor: `192.0.2.${index}` }))
    expect(direct).toBe(5)
    // Through the proxy, each client is counted on its own.
    const proxied = await refusedOf(LOOKUP_LIMIT + 5, (index) => ({ remoteAddress: "10.0.0.5", forwardedFor: `192.0.2.${index}` }))
    expect(proxied).toBe(0)
  })

  it("counts an IPv6 client's whole /64 together and another /64 apart", async () => {
    test = await startTestApp()
    const sameSubnet = await refusedOf(LOOKUP_LIMIT + 5, (index) => ({ remoteAddress: `2001:db8:1:2::${(index + 1).toString(16)}` }))
    expect(sameSubnet).toBe(5)
    expect(await refusedOf(1, () => ({ remoteAddress: "2001:db8:1:3::1" }))).toBe(0)
  })
})
