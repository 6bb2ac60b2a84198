// @ts-check
// Audio files to PCM (Float32 per channel, in [-1, 1]) for the audio worker thread.
//
// WAV is read here by hand (integer PCM of 8 to 32 bits, IEEE float of 32 or 64 bits, plain or
// WAVE_FORMAT_EXTENSIBLE). MP3, FLAC and Ogg (Opus, Vorbis or FLAC inside) go through the
// WebAssembly decoders of the wasm-audio-decoders project: the WASM is inside each package, no
// install script and no download. Each decoder is imported on the first file of its type, so a
// server that never reads such a file never loads it.
//
// Plain JavaScript: it runs inside the worker, which Node 20 starts without a TypeScript loader.

/** Thrown for a file that cannot be turned into PCM; its message names the type, never the content. */
export class UndecodableAudio extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'UndecodableAudio';
  }
}

/**
 * Thrown before decoding (WAV, FLAC: their headers give every frame's samples) or after it (the
 * others) when a clip holds more than the decoded-samples limit (memory-limits.ts), whatever its
 * stream header declared. The caller words the message.
 */
export class OverSampleLimit extends Error {
  constructor() {
    super('over the decoded-samples limit');
    this.name = 'OverSampleLimit';
  }
}

/** @param {Uint8Array} bytes */
function flacCrc8(bytes) {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

/**
 * Samples (per channel × channels) of the FLAC frame whose header starts at `at`, or 0 when no
 * valid frame header (CRC-8 included) starts there.
 * @param {Uint8Array} bytes @param {number} at
 */
function flacFrameSamples(bytes, at) {
  if (at + 6 > bytes.length || bytes[at] !== 0xff || ((bytes[at + 1] ?? 0) & 0xfe) !== 0xf8) return 0;
  const sizeCode = (bytes[at + 2] ?? 0) >> 4;
  const rateCode = (bytes[at + 2] ?? 0) & 0x0f;
  const channelCode = (bytes[at + 3] ?? 0) >> 4;
  if (sizeCode === 0 || rateCode === 0x0f || channelCode > 10 || ((bytes[at + 3] ?? 0) & 1) !== 0) return 0;
  // The frame or sample number: FLAC's UTF-8-like coding, 1 to 7 bytes.
  let length = 4;
  const lead = bytes[length + at] ?? 0xff;
  let extra = 0;
  if (lead >= 0x80) {
    if (lead < 0xc0 || lead === 0xff) return 0;
    for (let mask = 0x40; lead & mask; mask >>= 1) extra += 1;
  }
  for (let i = 1; i <= extra; i += 1) if (((bytes[at + length + i] ?? 0) & 0xc0) !== 0x80) return 0;
  length += 1 + extra;
  let blockSize = 0;
  if (sizeCode === 1) blockSize = 192;
  else if (sizeCode <= 5) blockSize = 576 << (sizeCode - 2);
  else if (sizeCode === 6) blockSize = (bytes[at + length++] ?? 0) + 1;
  else if (sizeCode === 7) {
    blockSize = (((bytes[at + length] ?? 0) << 8) | (bytes[at + length + 1] ?? 0)) + 1;
    length += 2;
  } else blockSize = 256 << (sizeCode - 8);
  if (rateCode === 12) length += 1;
  else if (rateCode === 13 || rateCode === 14) length += 2;
  if (at + length + 1 > bytes.length || flacCrc8(bytes.subarray(at, at + length)) !== bytes[at + length]) return 0;
  return blockSize * (channelCode < 8 ? channelCode + 1 : 2);
}

/**
 * The samples every FLAC frame header in `bytes` declares, in all: what a decoder would produce,
 * read before decoding (a STREAMINFO can understate it; frames cannot). Stops counting past `limit`.
 * @param {Uint8Array} bytes @param {number} limit
 */
export function flacDeclaredSamples(bytes, limit) {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  for (let at = buffer.indexOf(0xff); at !== -1 && total <= limit; at = buffer.indexOf(0xff, at + 1)) total += flacFrameSamples(bytes, at);
  return total;
}

/**
 * The bodies of an Ogg stream's pages, joined: the packets without the page headers between them
 * (a FLAC frame header split by a page boundary is whole again).
 * @param {Uint8Array} bytes
 */
export function oggPayload(bytes) {
  /** @type {Uint8Array[]} */
  const bodies = [];
  let at = 0;
  while (at + 27 <= bytes.length && fourCc(bytes, at) === 'OggS') {
    const segments = bytes[at + 26] ?? 0;
    let size = 0;
    for (let i = 0; i < segments; i += 1) size += bytes[at + 27 + i] ?? 0;
    const body = at + 27 + segments;
    bodies.push(bytes.subarray(body, Math.min(bytes.length, body + size)));
    at = body + size;
  }
  return new Uint8Array(Buffer.concat(bodies));
}

/** @typedef {{ channelData: Float32Array[], samplesDecoded: number, sampleRate: number }} Pcm */

const FORMAT_PCM = 0x0001;
const FORMAT_FLOAT = 0x0003;
const FORMAT_EXTENSIBLE = 0xfffe;

/** @param {Uint8Array} bytes @param {number} offset */
const fourCc = (bytes, offset) => String.fromCharCode(...bytes.subarray(offset, offset + 4));

/**
 * @param {Uint8Array} bytes
 * @param {number} [maxSamples] decoded samples (frames × channels) allowed
 * @returns {Pcm}
 */
export function decodeWav(bytes, maxSamples = Number.POSITIVE_INFINITY) {
  if (bytes.length < 12 || fourCc(bytes, 0) !== 'RIFF' || fourCc(bytes, 8) !== 'WAVE') throw new UndecodableAudio('The file is not a RIFF/WAVE file.');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  /** @type {{ format: number, channels: number, sampleRate: number, bitsPerSample: number, blockAlign: number } | undefined} */
  let format;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = fourCc(bytes, offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ' && size >= 16 && body + 16 <= bytes.length) {
      let tag = view.getUint16(body, true);
      // WAVE_FORMAT_EXTENSIBLE: the real format is the first two bytes of the sub-format GUID.
      if (tag === FORMAT_EXTENSIBLE && size >= 40 && body + 26 <= bytes.length) tag = view.getUint16(body + 24, true);
      format = {
        format: tag,
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        blockAlign: view.getUint16(body + 12, true),
        bitsPerSample: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      if (!format) throw new UndecodableAudio('The WAV file has no format chunk before its audio.');
      // A streamed WAV may carry a size it never reached (0xFFFFFFFF): read what is there.
      return wavSamples(view, body, Math.min(size, bytes.length - body), format, maxSamples);
    }
    offset = body + size + (size % 2);
  }
  throw new UndecodableAudio('The WAV file has no audio data.');
}

/**
 * @param {DataView} view @param {number} start @param {number} length
 * @param {{ format: number, channels: number, sampleRate: number, bitsPerSample: number, blockAlign: number }} format
 * @param {number} maxSamples
 * @returns {Pcm}
 */
function wavSamples(view, start, length, format, maxSamples) {
  const { channels, sampleRate, bitsPerSample } = format;
  const bytesPerSample = bitsPerSample / 8;
  const supported =
    (format.format === FORMAT_PCM && [8, 16, 24, 32].includes(bitsPerSample)) || (format.format === FORMAT_FLOAT && [32, 64].includes(bitsPerSample));
  if (!supported) throw new UndecodableAudio(`WAV format ${format.format} with ${bitsPerSample}-bit samples is not supported.`);
  if (channels < 1 || sampleRate < 1 || format.blockAlign !== channels * bytesPerSample) throw new UndecodableAudio('The WAV format chunk is inconsistent.');
  const frames = Math.floor(length / format.blockAlign);
  if (frames * channels > maxSamples) throw new OverSampleLimit();
  const channelData = Array.from({ length: channels }, () => new Float32Array(frames));
  const read = sampleReader(view, format.format, bitsPerSample);
  channelData.forEach((samples, channel) => {
    for (let frame = 0, at = start + channel * bytesPerSample; frame < frames; frame += 1, at += format.blockAlign) samples[frame] = read(at);
  });
  return { channelData, samplesDecoded: frames, sampleRate };
}

/**
 * @param {DataView} view @param {number} format @param {number} bits
 * @returns {(offset: number) => number}
 */
function sampleReader(view, format, bits) {
  if (format === FORMAT_FLOAT) return bits === 32 ? (at) => view.getFloat32(at, true) : (at) => view.getFloat64(at, true);
  switch (bits) {
    case 8:
      return (at) => (view.getUint8(at) - 128) / 128; // 8-bit WAV is unsigned
    case 16:
      return (at) => view.getInt16(at, true) / 32768;
    case 24:
      return (at) => ((view.getUint8(at + 2) << 24) | (view.getUint8(at + 1) << 16) | (view.getUint8(at) << 8)) / 2147483648;
    default:
      return (at) => view.getInt32(at, true) / 2147483648;
  }
}

/**
 * Channels of an MPEG audio stream, from its first frame header (after an ID3v2 tag, if any):
 * mpg123-decoder always answers two channels, a mono file's twice.
 * @param {Uint8Array} bytes
 */
export function mpegChannels(bytes) {
  /** @param {number} index */
  const byteAt = (index) => bytes[index] ?? 0;
  let offset = 0;
  if (bytes.length >= 10 && fourCc(bytes, 0).slice(0, 3) === 'ID3') {
    // Syncsafe size: 7 bits per byte; a footer adds 10 bytes.
    const size = ((byteAt(6) & 0x7f) << 21) | ((byteAt(7) & 0x7f) << 14) | ((byteAt(8) & 0x7f) << 7) | (byteAt(9) & 0x7f);
    offset = 10 + size + (byteAt(5) & 0x10 ? 10 : 0);
  }
  for (; offset + 4 <= bytes.length; offset += 1) {
    if (byteAt(offset) === 0xff && (byteAt(offset + 1) & 0xe0) === 0xe0) return byteAt(offset + 3) >> 6 === 3 ? 1 : 2;
  }
  return 2;
}

/** The codec of an Ogg stream, from the first packet of its first page. @param {Uint8Array} bytes */
export function oggCodec(bytes) {
  if (bytes.length < 28 || fourCc(bytes, 0) !== 'OggS') return undefined;
  const packet = 27 + (bytes[26] ?? 0);
  const head = String.fromCharCode(...bytes.subarray(packet, packet + 8));
  if (head === 'OpusHead') return 'opus';
  if (head.slice(1, 7) === 'vorbis' && bytes[packet] === 0x01) return 'vorbis';
  if (head.slice(1, 5) === 'FLAC' && bytes[packet] === 0x7f) return 'flac';
  return undefined;
}

/**
 * Runs one of the WASM decoders on a whole file and frees it.
 * @param {{ ready: Promise<void>, free: () => void }} decoder
 * @param {() => Pcm | Promise<Pcm>} decode
 * @returns {Promise<Pcm>}
 */
async function withDecoder(decoder, decode) {
  await decoder.ready;
  try {
    return await decode();
  } finally {
    decoder.free();
  }
}

/**
 * @param {Uint8Array} bytes
 * @param {string} mimeType the asset's bare type: audio/wav, audio/mpeg, audio/flac or audio/ogg
 * @param {number} [maxSamples] decoded samples (frames × channels) allowed: WAV and FLAC are
 *   checked before decoding, from their headers; the others, whose decoders do real work per
 *   sample (the server's memory watchdog bounds them meanwhile), after
 * @returns {Promise<Pcm>}
 */
export async function decodeToPcm(bytes, mimeType, maxSamples = Number.POSITIVE_INFINITY) {
  const codec = mimeType === 'audio/ogg' ? oggCodec(bytes) : undefined;
  if (mimeType === 'audio/flac' && flacDeclaredSamples(bytes, maxSamples) > maxSamples) throw new OverSampleLimit();
  if (codec === 'flac' && flacDeclaredSamples(oggPayload(bytes), maxSamples) > maxSamples) throw new OverSampleLimit();
  let pcm;
  switch (mimeType) {
    case 'audio/wav':
      pcm = decodeWav(bytes, maxSamples);
      break;
    case 'audio/mpeg': {
      const { MPEGDecoder } = await import('mpg123-decoder');
      const decoder = new MPEGDecoder();
      pcm = await withDecoder(decoder, () => decoder.decode(bytes));
      if (mpegChannels(bytes) === 1) pcm = { ...pcm, channelData: pcm.channelData.slice(0, 1) };
      break;
    }
    case 'audio/flac': {
      const { FLACDecoder } = await import('@wasm-audio-decoders/flac');
      const decoder = new FLACDecoder();
      pcm = await withDecoder(decoder, () => decoder.decodeFile(bytes));
      break;
    }
    case 'audio/ogg': {
      if (codec === 'opus') {
        const { OggOpusDecoder } = await import('ogg-opus-decoder');
        const decoder = new OggOpusDecoder();
        pcm = await withDecoder(decoder, () => decoder.decodeFile(bytes));
      } else if (codec === 'vorbis') {
        const { OggVorbisDecoder } = await import('@wasm-audio-decoders/ogg-vorbis');
        const decoder = new OggVorbisDecoder();
        pcm = await withDecoder(decoder, () => decoder.decodeFile(bytes));
      } else if (codec === 'flac') {
        const { FLACDecoder } = await import('@wasm-audio-decoders/flac');
        const decoder = new FLACDecoder();
        pcm = await withDecoder(decoder, () => decoder.decodeFile(bytes));
      } else {
        throw new UndecodableAudio('The Ogg stream is not Opus, Vorbis or FLAC.');
      }
      break;
    }
    default:
      throw new UndecodableAudio(`${mimeType} is not an audio type this server decodes.`);
  }
  if (!pcm || !(pcm.samplesDecoded > 0) || !(pcm.sampleRate > 0) || pcm.channelData.length === 0) {
    throw new UndecodableAudio(`No audio could be decoded from the ${mimeType} file.`);
  }
  if (pcm.samplesDecoded * pcm.channelData.length > maxSamples) throw new OverSampleLimit();
  return pcm;
}
