// The declared Content-Type of an upload. Parameters are accepted and ignored (open point
// upload-media-type-parameters); type names are case-insensitive (RFC 9110 section 8.3.1; open
// point upload-media-type-case, whose alternate compares them only as the list writes them).

/** The bare media type, lower-cased ("Text/Plain; charset=UTF-8" -> "text/plain"); undefined if absent. */
export function bareMediaType(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const bare = header.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return bare === '' ? undefined : bare;
}

/**
 * A printable form of a declared type for error messages: a type/subtype token or nothing.
 * Callers put arbitrary text in headers; only a well-formed token is echoed back.
 */
export function printableMediaType(bare: string): string | undefined {
  return /^[a-z0-9!#$&^_.+-]{1,64}\/[a-z0-9!#$&^_.+-]{1,64}$/.test(bare) ? bare : undefined;
}

/** Whether the declared type and subtype are written in lower case, as the seed lists them; an absent header is left to inspectUpload. */
export function isWrittenInLowerCase(header: string | undefined): boolean {
  const type = header?.split(';', 1)[0] ?? '';
  return type === type.toLowerCase();
}
