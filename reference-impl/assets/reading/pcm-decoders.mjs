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

/** @typedef {{ channelData: Float32Array[], samplesDecoded: number, sampleRate: number }} Pcm */

const FORMAT_PCM = 0x0001;
const FORMAT_FLOAT = 0x0003;
const FORMAT_EXTENSIBLE = 0xfffe;

/** @param {Uint8Array} bytes @param {number} offset */
const fourCc = (bytes, offset) => String.fromCharCode(...bytes.subarray(offset, offset + 4));

/**
 * @param {Uint8Array} bytes
 * @returns {Pcm}
 */
export function decodeWav(bytes) {
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
      return wavSamples(view, body, Math.min(size, bytes.length - body), format);
    }
    offset = body + size + (size % 2);
  }
  throw new UndecodableAudio('The WAV file has no audio data.');
}

/**
 * @param {DataView} view @param {number} start @param {number} length
 * @param {{ format: number, channels: number, sampleRate: number, bitsPerSample: number, blockAlign: number }} format
 * @returns {Pcm}
 */
function wavSamples(view, start, length, format) {
  const { channels, sampleRate, bitsPerSample } = format;
  const bytesPerSample = bitsPerSample / 8;
  const supported =
    (format.format === FORMAT_PCM && [8, 16, 24, 32].includes(bitsPerSample)) || (format.format === FORMAT_FLOAT && [32, 64].includes(bitsPerSample));
  if (!supported) throw new UndecodableAudio(`WAV format ${format.format} with ${bitsPerSample}-bit samples is not supported.`);
  if (channels < 1 || sampleRate < 1 || format.blockAlign !== channels * bytesPerSample) throw new UndecodableAudio('The WAV format chunk is inconsistent.');
  const frames = Math.floor(length / format.blockAlign);
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
 * @returns {Promise<Pcm>}
 */
export async function decodeToPcm(bytes, mimeType) {
  let pcm;
  switch (mimeType) {
    case 'audio/wav':
      pcm = decodeWav(bytes);
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
      const codec = oggCodec(bytes);
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
  return pcm;
}
