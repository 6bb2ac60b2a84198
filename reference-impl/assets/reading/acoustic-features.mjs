// @ts-check
// Acoustic features of decoded audio (seed 2.2: audio is read by "speech transcription plus
// acoustic features"; this server has the features only, see audio.ts).
//
// Plain JavaScript: it runs inside the audio worker thread, which Node 20 starts without a
// TypeScript loader. Types are given in JSDoc; audio.ts holds the TypeScript declaration.
//
// Levels are RMS relative to full scale (samples in [-1, 1]): a full-scale sine reads -3.01 dBFS
// (no AES-17 +3 dB correction). Digital silence reads FLOOR_DBFS instead of minus infinity, so
// that every feature is a finite number on the wire between threads and in the cache.

/** Frames of this length are judged silent or not: long enough to span a low voice's period. */
export const SILENCE_FRAME_SECONDS = 0.02;
/** A frame whose RMS is below this is silence: well under speech at any recording level, above dither and hiss. */
export const SILENCE_THRESHOLD_DBFS = -50;
/** The level reported for digital silence. */
export const FLOOR_DBFS = -120;

/** @param {number} meanSquare */
function dbfsOfMeanSquare(meanSquare) {
  if (!(meanSquare > 0)) return FLOOR_DBFS;
  return Math.max(FLOOR_DBFS, 10 * Math.log10(meanSquare));
}

/** @param {number} value */
const round = (value, digits = 2) => Number(value.toFixed(digits));

/**
 * @param {{ channelData: Float32Array[], samplesDecoded: number, sampleRate: number }} pcm
 * @returns {{ durationSeconds: number, sampleRate: number, channels: number, rmsDbfs: number, peakDbfs: number, silenceShare: number }}
 */
export function acousticFeatures(pcm) {
  const { channelData, sampleRate } = pcm;
  const channels = channelData.length;
  const samples = Math.min(pcm.samplesDecoded, ...channelData.map((channel) => channel.length));
  const frameLength = Math.max(1, Math.round(sampleRate * SILENCE_FRAME_SECONDS));
  const silentFrameMeanSquare = 10 ** (SILENCE_THRESHOLD_DBFS / 10);

  let totalSquares = 0;
  let peak = 0;
  let frames = 0;
  let silentFrames = 0;
  for (let start = 0; start < samples; start += frameLength) {
    const end = Math.min(samples, start + frameLength);
    let frameSquares = 0;
    for (const channel of channelData) {
      for (let i = start; i < end; i += 1) {
        const sample = channel[i] ?? 0;
        frameSquares += sample * sample;
        const magnitude = Math.abs(sample);
        if (magnitude > peak) peak = magnitude;
      }
    }
    totalSquares += frameSquares;
    frames += 1;
    // All channels together: a frame is silent when no channel carries sound.
    if (frameSquares / ((end - start) * channels) < silentFrameMeanSquare) silentFrames += 1;
  }

  return {
    durationSeconds: round(samples / sampleRate, 3),
    sampleRate,
    channels,
    rmsDbfs: round(dbfsOfMeanSquare(samples > 0 ? totalSquares / (samples * channels) : 0)),
    peakDbfs: round(dbfsOfMeanSquare(peak * peak)),
    silenceShare: frames > 0 ? round(silentFrames / frames, 3) : 1,
  };
}
