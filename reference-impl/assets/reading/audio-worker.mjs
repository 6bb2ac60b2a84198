// @ts-check
// The audio worker thread: decodes files to PCM and measures them, off the thread that answers
// requests, so a text-only decision never waits behind a decode. One message in, one out:
//   in:  { id, bytes: Uint8Array, mimeType }
//   out: { id, features } or { id, failure: message }
// Messages name the type and the fault, never the file's content (seed 2.5).
import { parentPort } from 'node:worker_threads';
import { acousticFeatures } from './acoustic-features.mjs';
import { decodeToPcm, UndecodableAudio } from './pcm-decoders.mjs';

// mpg123-decoder reports each bad frame on console.error. The caller gets DECODE_FAILED or the
// features; the server's own log stays the structured one.
console.error = () => undefined;
console.warn = () => undefined;

if (!parentPort) throw new Error('audio-worker.mjs runs as a worker thread');
const port = parentPort;

port.on('message', async (/** @type {{ id: number, bytes: Uint8Array, mimeType: string }} */ message) => {
  const { id, bytes, mimeType } = message;
  try {
    const pcm = await decodeToPcm(bytes, mimeType);
    port.postMessage({ id, features: acousticFeatures(pcm) });
  } catch (error) {
    // A decoder that throws on a corrupt file says nothing useful to a caller beyond "cannot be decoded".
    const failure = error instanceof UndecodableAudio ? error.message : `The ${mimeType} file could not be decoded.`;
    port.postMessage({ id, failure });
  }
});
