/**
 * A DNS server on loopback for the tests (DNS_SERVERS points the server at it): it answers TXT questions from a map
 * the test changes as it goes, NXDOMAIN for names it does not hold, and can be told to stay silent, as an unreachable
 * server does. The world's DNS is outside our control, like Stripe.
 */
import dgram from "node:dgram"

import * as packet from "dns-packet"

export interface DnsStandIn {
  /** "127.0.0.1:port", as DNS_SERVERS takes it. */
  address: string
  /** TXT values by name (lower case); a test sets and deletes entries as it goes. */
  txt: Map<string, string[]>
  /** While true, questions go unanswered. */
  silent: boolean
  /** The names asked, in order. */
  asked: string[]
  close(): Promise<void>
}

export async function startDnsStandIn(): Promise<DnsStandIn> {
  const socket = dgram.createSocket("udp4")
  const standIn: DnsStandIn = { address: "", txt: new Map(), silent: false, asked: [], close: () => new Promise((resolve) => socket.close(() => resolve())) }
  socket.on("message", (message, from) => {
    const query = packet.decode(message)
    const question = query.questions?.[0]
    if (!question) return
    standIn.asked.push(question.name)
    if (standIn.silent) return
    const values = standIn.txt.get(question.name.toLowerCase())
    const reply = packet.encode({
      id: query.id,
      type: "response",
      flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (values ? 0 : 3),
      questions: [question],
      answers: values && question.type === "TXT" ? values.map((value) => ({ type: "TXT" as const, name: question.name, ttl: 60, class: "IN" as const, data: [value] })) : []
    })
    socket.send(reply, from.port, from.address)
  })
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve))
  standIn.address = `127.0.0.1:${socket.address().port}`
  return standIn
}
