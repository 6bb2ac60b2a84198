// RIFF/WAVE, 16-bit PCM mono at 8 kHz, carrying a quiet 440 Hz tone (a tone rather than silence,
// so acoustic features have something to measure).
import { concatBytes, latin1, u16le, u32le } from './bytes.ts';

export const wavSampleRate = 8000;

export interface WavOptions {
  /** Total file size in bytes, reached with a JUNK chunk (which readers skip) before the audio. */
  totalBytes?: number;
}

function toneSamples(sampleCount: number): Uint8Array {
  const out = new Uint8Array(sampleCount * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < sampleCount; i += 1) {
    // Rounded to an integer, the sine is identical on every platform.
    view.setInt16(i * 2, Math.round(2000 * Math.sin((2 * Math.PI * 440 * i) / wavSampleRate)), true);
  }
  return out;
}

function riffChunk(id: string, data: Uint8Array): Uint8Array {
  const padding = new Uint8Array(data.length % 2);
  return concatBytes([latin1(id), u32le(data.length), data, padding]);
}

/** A stretch of a clip: a 440 Hz sine of this peak amplitude (0 to 1 of full scale), 0 for silence. */
export interface WavSegment {
  seconds: number;
  amplitude: number;
}

export interface WavClipOptions {
  /** Default 16 kHz. */
  sampleRate?: number;
  /** Default 1; every channel carries the same samples. */
  channels?: number;
  /** Text stored as the file's comment (a LIST/INFO ICMT chunk): metadata a reader may pick up. */
  comment?: string;
}

/** 16-bit PCM of tones and silences in order, for measuring acoustic features against known values. */
export function wavClip(segments: readonly WavSegment[], options: WavClipOptions = {}): Uint8Array {
  const sampleRate = options.sampleRate ?? 16000;
  const channels = options.channels ?? 1;
  const frameCounts = segments.map((segment) => Math.round(segment.seconds * sampleRate));
  const out = new Uint8Array(frameCounts.reduce((sum, count) => sum + count, 0) * 2 * channels);
  const view = new DataView(out.buffer);
  let frame = 0;
  segments.forEach((segment, index) => {
    for (let i = 0; i < frameCounts[index]!; i += 1, frame += 1) {
      const value = Math.round(32767 * segment.amplitude * Math.sin((2 * Math.PI * 440 * i) / sampleRate));
      for (let channel = 0; channel < channels; channel += 1) view.setInt16((frame * channels + channel) * 2, value, true);
    }
  });
  const format = concatBytes([u16le(1), u16le(channels), u32le(sampleRate), u32le(sampleRate * 2 * channels), u16le(2 * channels), u16le(16)]);
  const chunks = [riffChunk('fmt ', format)];
  if (options.comment !== undefined)
    chunks.push(riffChunk('LIST', concatBytes([latin1('INFO'), riffChunk('ICMT', concatBytes([latin1(options.comment), new Uint8Array([0])]))])));
  chunks.push(riffChunk('data', out));
  const body = concatBytes(chunks);
  return concatBytes([latin1('RIFF'), u32le(4 + body.length), latin1('WAVE'), body]);
}

export function wavSeconds(seconds: number, options: WavOptions = {}): Uint8Array {
  if (!(seconds > 0)) throw new RangeError('A WAV sample needs a positive duration');
  const sampleCount = Math.round(seconds * wavSampleRate);
  const format = concatBytes([
    u16le(1), // PCM
    u16le(1), // mono
    u32le(wavSampleRate),
    u32le(wavSampleRate * 2), // byte rate
    u16le(2), // block align
    u16le(16), // bits per sample
  ]);
  const chunks = [riffChunk('fmt ', format)];
  const audio = riffChunk('data', toneSamples(sampleCount));
  if (options.totalBytes !== undefined) {
    const fixed = 12 + chunks[0]!.length + audio.length + 8;
    const fill = options.totalBytes - fixed;
    if (fill < 0 || fill % 2 !== 0) throw new RangeError(`Cannot pad this WAV to ${options.totalBytes} bytes`);
    chunks.push(riffChunk('JUNK', new Uint8Array(fill)));
  }
  chunks.push(audio);
  const body = concatBytes(chunks);
  return concatBytes([latin1('RIFF'), u32le(4 + body.length), latin1('WAVE'), body]);
}
