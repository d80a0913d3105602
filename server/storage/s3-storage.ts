import { createReadStream } from "node:fs"
import fs from "node:fs/promises"
import { Readable } from "node:stream"

import type { S3Client } from "@aws-sdk/client-s3"

import type { S3Config } from "../config"
import type { ObjectStorage, StoredObject } from "./object-storage"

/** A call to the object storage that has not answered in this time has failed: an upload is not held open for it. */
const S3_REQUEST_TIMEOUT_MS = 15_000

/**
 * Objects in an S3-compatible bucket (AWS S3, MinIO, R2, …) under a prefix, addressed path-style so that any
 * endpoint works. A put resolves when the storage acknowledged the whole object.
 */
export function s3Storage(config: S3Config, prefix: string): ObjectStorage {
  // The SDK is loaded when S3 is configured, not on every start (0.14 CPU-s); each call waits for it.
  const loading = import("@aws-sdk/client-s3").then((sdk) => ({ sdk, client: connect(sdk.S3Client, config) }))
  // A failed load is the first call's error, not an unhandled rejection meanwhile.
  loading.catch(() => {})
  const key = (name: string) => `${prefix}${name}`
  return {
    kind: "s3",
    async put(name, sourcePath, contentType) {
      const { sdk, client } = await loading
      const { size } = await fs.stat(sourcePath)
      await client.send(
        new sdk.PutObjectCommand({ Bucket: config.bucket, Key: key(name), Body: createReadStream(sourcePath), ContentLength: size, ContentType: contentType })
      )
      await fs.rm(sourcePath, { force: true })
    },
    async read(name) {
      const { sdk, client } = await loading
      try {
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket: config.bucket, Key: key(name) }))
        return answer.Body instanceof Readable ? answer.Body : null
      } catch (error) {
        if ((error as { name?: string }).name === "NoSuchKey") return null
        throw error
      }
    },
    async remove(name) {
      const { sdk, client } = await loading
      await client.send(new sdk.DeleteObjectCommand({ Bucket: config.bucket, Key: key(name) }))
    },
    async list() {
      const { sdk, client } = await loading
      const objects: StoredObject[] = []
      let token: string | undefined
      do {
        const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: config.bucket, Prefix: prefix, ContinuationToken: token }))
        for (const object of page.Contents ?? []) {
          if (object.Key) objects.push({ name: object.Key.slice(prefix.length), size: object.Size ?? 0, modifiedAt: object.LastModified?.getTime() ?? 0 })
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (token)
      return objects
    },
    async check() {
      const { sdk, client } = await loading
      await client.send(new sdk.HeadBucketCommand({ Bucket: config.bucket }))
    }
  }
}

function connect(Client: typeof S3Client, config: S3Config): S3Client {
  return new Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: true,
    // Checksums only where the API requires them: the SDK's default streams uploads as aws-chunked with a trailing
    // checksum, which several S3-compatible servers store as is (framing included) instead of the file.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    maxAttempts: 2,
    requestHandler: { requestTimeout: S3_REQUEST_TIMEOUT_MS, connectionTimeout: 5_000 }
  })
}
