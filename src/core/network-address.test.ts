import { describe, expect, it } from "vitest"

import { classifyAddress, hostNetwork, ipVersion, isLocalNetworkName } from "./network-address"

describe("address classification", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["10.1.2.3", "restricted"],
    ["172.16.0.1", "restricted"],
    ["172.31.255.255", "restricted"],
    ["192.168.10.1", "restricted"],
    ["169.254.169.254", "restricted"],
    ["100.64.0.1", "restricted"],
    ["100.127.255.255", "restricted"],
    ["0.0.0.0", "restricted"],
    ["0.1.2.3", "restricted"],
    ["224.0.0.251", "restricted"],
    ["255.255.255.255", "restricted"],
    ["::", "restricted"],
    ["::ffff:10.0.0.1", "restricted"],
    ["::ffff:a9fe:a9fe", "restricted"],
    ["::10.0.0.1", "restricted"],
    ["64:ff9b::a9fe:a9fe", "restricted"],
    ["2002:0a00:0001::1", "restricted"],
    ["fe80::1", "restricted"],
    ["fe80::1%eth0", "restricted"],
    ["febf::1", "restricted"],
    ["fc00::1", "restricted"],
    ["fd12:3456::1", "restricted"],
    ["ff02::1", "restricted"],
    ["2001:db8::1", "restricted"],
    ["not-an-ip", "restricted"],
    ["8.8.8.8", "public"],
    ["172.32.0.1", "public"],
    ["100.128.0.1", "public"],
    ["::ffff:8.8.8.8", "public"],
    ["2606:4700:4700::1111", "public"],
    ["2002:0808:0808::1", "public"]
  ])("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind)
  })

  it.each([
    ["01.2.3.4", 0],
    ["1.2.3", 0],
    ["256.1.1.1", 0],
    ["1.2.3.4", 4],
    ["::1", 6],
    ["fe80::1%eth0", 6],
    ["intranet", 0]
  ])("%s is an IPv%s address (0: none)", (address, version) => {
    expect(ipVersion(address)).toBe(version)
  })
})

describe("host names of a local network", () => {
  it.each(["localhost", "LOCALHOST.", "app.localhost", "intranet", "printer.local", "db.internal", "nas.lan", "router.home.arpa", "wiki.corp", "files.intranet", "box.localdomain", "fritz.home", "vault.private"])(
    "%s is a local name",
    (host) => {
      expect(isLocalNetworkName(host)).toBe(true)
      expect(hostNetwork(host)).toBe("private")
    }
  )

  it.each(["example.com", "intranet.test", "local.example.com", "internal.example.org", "corp.example.net", "news.example", "lan.party.com"])("%s is a DNS name", (host) => {
    expect(isLocalNetworkName(host)).toBe(false)
    expect(hostNetwork(host)).toBe("name")
  })

  it("judges a URL's address hosts by their range, whatever form the URL gave them", () => {
    // The URL parser writes every IPv4 form (decimal, octal, hex, short) and IPv6 in one canonical way.
    const hostOf = (url: string) => new URL(url).hostname
    expect(hostNetwork(hostOf("http://2130706433/"))).toBe("private")
    expect(hostNetwork(hostOf("http://0x7f.1/"))).toBe("private")
    expect(hostNetwork(hostOf("http://0300.0250.1.1/"))).toBe("private")
    expect(hostNetwork(hostOf("http://[::ffff:192.168.1.1]/"))).toBe("private")
    expect(hostNetwork(hostOf("http://[fe80::1]/"))).toBe("private")
    expect(hostNetwork(hostOf("http://[fd00::5]/"))).toBe("private")
    expect(hostNetwork(hostOf("http://169.254.169.254/"))).toBe("private")
    expect(hostNetwork(hostOf("http://100.64.0.1/"))).toBe("private")
    expect(hostNetwork(hostOf("http://0.0.0.0/"))).toBe("private")
    expect(hostNetwork(hostOf("http://8.8.8.8/"))).toBe("public")
    expect(hostNetwork(hostOf("http://[2606:4700:4700::1111]/"))).toBe("public")
  })
})
