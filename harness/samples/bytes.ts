// Byte-building helpers shared by the sample generators.

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** ASCII or Latin-1 text as one byte per character (chunk ids, PDF syntax). */
export function latin1(text: string): Uint8Array {
  // Node's latin1 encoding keeps the low byte of each UTF-16 unit, natively: padded samples run to
  // tens of megabytes. Written into an array of its own, not a view of Buffer's shared pool.
  const out = new Uint8Array(text.length);
  Buffer.from(out.buffer).write(text, 'latin1');
  return out;
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

export function u16le(value: number): Uint8Array {
  return new Uint8Array([value & 0xff, (value >>> 8) & 0xff]);
}

export function u32le(value: number): Uint8Array {
  return new Uint8Array([value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff]);
}

export function u16be(value: number): Uint8Array {
  return new Uint8Array([(value >>> 8) & 0xff, value & 0xff]);
}

export function u32be(value: number): Uint8Array {
  return new Uint8Array([(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]);
}

/** A 64-bit little-endian unsigned integer; Ogg granule positions need more than 32 bits of range. */
export function u64le(value: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value), true);
  return out;
}

/**
 * Writes values most-significant bit first, as FLAC frame headers and JPEG entropy data are laid out.
 */
export class MsbBitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private used = 0;

  write(value: number, bitCount: number): void {
    for (let bit = bitCount - 1; bit >= 0; bit -= 1) {
      this.current = (this.current << 1) | (Math.floor(value / 2 ** bit) & 1);
      this.used += 1;
      if (this.used === 8) this.flushByte();
    }
  }

  /** Pads the last byte with `fill` bits (JPEG pads with ones, FLAC with zeros). */
  finish(fill: 0 | 1 = 0): Uint8Array {
    while (this.used !== 0) this.write(fill, 1);
    return new Uint8Array(this.bytes);
  }

  private flushByte(): void {
    this.bytes.push(this.current & 0xff);
    this.current = 0;
    this.used = 0;
  }
}

/** Writes values least-significant bit first, as the WebP lossless (VP8L) bitstream is laid out. */
export class LsbBitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private used = 0;

  write(value: number, bitCount: number): void {
    for (let bit = 0; bit < bitCount; bit += 1) {
      this.current |= (Math.floor(value / 2 ** bit) & 1) << this.used;
      this.used += 1;
      if (this.used === 8) {
        this.bytes.push(this.current);
        this.current = 0;
        this.used = 0;
      }
    }
  }

  finish(): Uint8Array {
    if (this.used !== 0) this.bytes.push(this.current);
    this.current = 0;
    this.used = 0;
    return new Uint8Array(this.bytes);
  }
}
