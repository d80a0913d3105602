/**
 * A software passkey for the API tests: it answers the server's options as a browser and an authenticator would
 * (WebAuthn level 3: "none" attestation, an ES256 key, the client data the browser signs), so that the tests drive the
 * real verification of @simplewebauthn/server. The browser and its authenticator are outside our control, like
 * Stripe; the site's end-to-end test uses Chromium's virtual authenticator instead.
 */
import crypto from "node:crypto"

import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers"

const UP = 0x01
const UV = 0x04
const AT = 0x40

const sha256 = (data: Uint8Array | string) => new Uint8Array(crypto.createHash("sha256").update(data).digest())
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts))
const uint32 = (value: number) => new Uint8Array([value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff])
const encode = (value: object) => isoBase64URL.fromUTF8String(JSON.stringify(value))

interface CreationOptions {
  challenge: string
  rp: { id?: string }
  user: { id: string }
}
interface RequestOptions {
  challenge: string
  rpId?: string
}

export interface SoftwarePasskey {
  /** base64url, as the browser names the credential. */
  id: string
  /** The next sign-in's signature counter; set it lower to play a copied authenticator. */
  counter: number
  /** Answers navigator.credentials.create() for the server's registration options. */
  register(options: CreationOptions, origin: string, flags?: { userVerified?: boolean }): object
  /** Answers navigator.credentials.get() for the server's authentication options. */
  signIn(options: RequestOptions, origin: string, flags?: { userVerified?: boolean }): object
}

export function softwarePasskey(rpId: string): SoftwarePasskey {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" })
  const jwk = publicKey.export({ format: "jwk" })
  const coseKey = new Map<number, number | Uint8Array>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, isoBase64URL.toBuffer(jwk.x!)],
    [-3, isoBase64URL.toBuffer(jwk.y!)]
  ])
  const rawId = new Uint8Array(crypto.randomBytes(16))
  const id = isoBase64URL.fromBuffer(rawId)
  let userHandle = ""
  const flagsOf = (userVerified = true) => new Uint8Array([UP | (userVerified ? UV : 0)])

  const passkey: SoftwarePasskey = {
    id,
    counter: 1,
    register(options, origin, { userVerified } = {}) {
      userHandle = options.user.id
      const clientDataJSON = encode({ type: "webauthn.create", challenge: options.challenge, origin, crossOrigin: false })
      const attested = concat(new Uint8Array(16), new Uint8Array([0, rawId.length]), rawId, isoCBOR.encode(coseKey))
      const flags = new Uint8Array([flagsOf(userVerified)[0]! | AT])
      const authData = concat(sha256(options.rp.id ?? rpId), flags, uint32(0), attested)
      const attestationObject = isoCBOR.encode(new Map<string, unknown>([["fmt", "none"], ["attStmt", new Map()], ["authData", authData]]) as never)
      return { id, rawId: id, type: "public-key", clientExtensionResults: {}, response: { clientDataJSON, attestationObject: isoBase64URL.fromBuffer(attestationObject), transports: ["internal"] } }
    },
    signIn(options, origin, { userVerified } = {}) {
      const clientDataJSON = encode({ type: "webauthn.get", challenge: options.challenge, origin, crossOrigin: false })
      const authData = concat(sha256(options.rpId ?? rpId), flagsOf(userVerified), uint32(passkey.counter))
      const signature = crypto.sign("sha256", concat(authData, sha256(isoBase64URL.toBuffer(clientDataJSON))), privateKey)
      passkey.counter += 1
      return {
        id,
        rawId: id,
        type: "public-key",
        clientExtensionResults: {},
        response: { clientDataJSON, authenticatorData: isoBase64URL.fromBuffer(authData), signature: isoBase64URL.fromBuffer(new Uint8Array(signature)), userHandle }
      }
    }
  }
  return passkey
}
