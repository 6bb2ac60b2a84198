// Ogg Opus: an OpusHead page, an OpusTags page, then audio pages of 20 ms CELT silence packets
// (TOC 0xF8: CELT-only, fullband, 20 ms, mono, one frame), each page with its CRC.
// Duration = (last granule position - pre-skip) / 48 kHz, as RFC 7845 defines it.
import { concatBytes, latin1, u16le, u32le, u64le } from './bytes.ts';
import { oggCrc32 } from './checksums.ts';

const opusRate = 48000;
const preSkip = 312;
const samplesPerPacket = 960; // 20 ms at 48 kHz
const packetsPerPage = 50; // one second of audio per page
const silencePacket = new Uint8Array([0xf8, 0xff, 0xfe]);
const streamSerial = 0x5eed_0001;

const headerType = { continued: 0x01, beginning: 0x02, end: 0x04 } as const;

function lacing(packets: readonly Uint8Array[]): number[] {
  const segments: number[] = [];
  for (const packet of packets) {
    let rest = packet.length;
    while (rest >= 255) {
      segments.push(255);
      rest -= 255;
    }
    segments.push(rest); // a final segment under 255 ends the packet (0 if the length is a multiple of 255)
  }
  if (segments.length > 255) throw new RangeError('Too many segments for one Ogg page');
  return segments;
}

function page(packets: readonly Uint8Array[], granule: number, sequence: number, type: number): Uint8Array {
  const segments = lacing(packets);
  const header = concatBytes([
    latin1('OggS'),
    new Uint8Array([0, type]),
    u64le(granule),
    u32le(streamSerial),
    u32le(sequence),
    u32le(0), // checksum placeholder
    new Uint8Array([segments.length, ...segments]),
  ]);
  const bytes = concatBytes([header, ...packets]);
  new DataView(bytes.buffer).setUint32(22, oggCrc32(bytes), true);
  return bytes;
}

function opusHead(): Uint8Array {
  return concatBytes([
    latin1('OpusHead'),
    new Uint8Array([1, 1]), // version 1, mono
    u16le(preSkip),
    u32le(opusRate), // original input rate, informational
    u16le(0), // output gain
    new Uint8Array([0]), // channel mapping family 0
  ]);
}

function opusTags(): Uint8Array {
  const vendor = latin1('decision-conformance samples');
  return concatBytes([latin1('OpusTags'), u32le(vendor.length), vendor, u32le(0)]);
}

export function oggOpusSeconds(seconds: number): Uint8Array {
  if (!(seconds > 0)) throw new RangeError('An Ogg sample needs a positive duration');
  const audioSamples = Math.round(seconds * opusRate);
  const packetCount = Math.ceil((audioSamples + preSkip) / samplesPerPacket);
  const pages = [page([opusHead()], 0, 0, headerType.beginning), page([opusTags()], 0, 1, 0)];
  for (let first = 0; first < packetCount; first += packetsPerPage) {
    const count = Math.min(packetsPerPage, packetCount - first);
    const isLast = first + count === packetCount;
    // The last page's granule position trims the surplus of the final packet (end trimming).
    const granule = isLast ? preSkip + audioSamples : (first + count) * samplesPerPacket;
    const packets = Array.from({ length: count }, () => silencePacket);
    pages.push(page(packets, granule, pages.length, isLast ? headerType.end : 0));
  }
  return concatBytes(pages);
}
