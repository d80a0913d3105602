const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Ids of the uuid columns; anything else from a URL is answered as not found instead of a database error. */
export function isUuid(value: string): boolean {
  return UUID.test(value)
}
