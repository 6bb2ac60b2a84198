// The checksums the sample formats require. PNG and ZIP use the common CRC-32 (node:zlib has it);
// Ogg and FLAC use their own polynomials, computed most-significant bit first with no reflection.
import { crc32 } from 'node:zlib';

export { crc32 };

function msbFirstTable(polynomial: number, width: 8 | 16 | 32): Uint32Array {
  const top = 2 ** (width - 1);
  const mask = 2 ** width - 1;
  const table = new Uint32Array(256);
  for (let byte = 0; byte < 256; byte += 1) {
    let register = byte * 2 ** (width - 8);
    for (let bit = 0; bit < 8; bit += 1) {
      const carry = register >= top;
      register = (register * 2) % 2 ** width;
      if (carry) register = (register ^ polynomial) >>> 0;
    }
    table[byte] = register & mask;
  }
  return table;
}

const oggTable = msbFirstTable(0x04c11db7, 32);
const flac8Table = msbFirstTable(0x07, 8);
const flac16Table = msbFirstTable(0x8005, 16);

/** The Ogg page checksum: CRC-32, polynomial 0x04C11DB7, initial value 0, no final XOR. */
export function oggCrc32(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ (oggTable[((crc >>> 24) ^ byte) & 0xff] ?? 0)) >>> 0;
  return crc;
}

/** The FLAC frame-header checksum: CRC-8, polynomial 0x07. */
export function flacCrc8(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = flac8Table[crc ^ byte] ?? 0;
  return crc;
}

/** The FLAC whole-frame checksum: CRC-16, polynomial 0x8005. */
export function flacCrc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = (((crc << 8) & 0xffff) ^ (flac16Table[(crc >>> 8) ^ byte] ?? 0)) & 0xffff;
  return crc;
}
