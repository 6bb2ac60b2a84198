// @ts-check
// The audio worker thread: decodes files to PCM and measures them, off the thread that answers
// requests, so a text-only decision never waits behind a decode. One message in, one out:
//   in:  { id, bytes: Uint8Array, mimeType, maxSamples }
//   out: { id, features }, { id, failure: message }, or { id, overLimit: true } for a clip that
//        holds more than maxSamples decoded samples (pcm-decoders.mjs)
// Messages name the type and the fault, never the file's content (seed 2.5).
import { parentPort } from 'node:worker_threads';
import { acousticFeatures } from './acoustic-features.mjs';
import { decodeToPcm, OverSampleLimit, UndecodableAudio } from './pcm-decoders.mjs';

// mpg123-decoder reports each bad frame on console.error. The caller gets DECODE_FAILED or the
// features; the server's own log stays the structured one.
console.error = () => undefined;
console.warn = () => undefined;

if (!parentPort) throw new Error('audio-worker.mjs runs as a worker thread');
const port = parentPort;

port.on('message', async (/** @type {{ id: number, bytes: Uint8Array, mimeType: string, maxSamples?: number }} */ message) => {
  const { id, bytes, mimeType, maxSamples } = message;
  try {
    const pcm = await decodeToPcm(bytes, mimeType, maxSamples);
    port.postMessage({ id, features: acousticFeatures(pcm) });
  } catch (error) {
    if (error instanceof OverSampleLimit) {
      port.postMessage({ id, overLimit: true });
      return;
    }
    // A decoder that throws on a corrupt file says nothing useful to a caller beyond "cannot be decoded".
    const failure = error instanceof UndecodableAudio ? error.message : `The ${mimeType} file could not be decoded.`;
    port.postMessage({ id, failure });
  }
});
