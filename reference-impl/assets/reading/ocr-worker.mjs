// The OCR pool's worker thread (ocr-pool.ts): tesseract.js's own Node worker script, run after
// the thread's console is silenced. The engine is C compiled to WebAssembly, and its libraries
// print their complaints about a picture ("libpng error: …", "Error in pixReadStreamPng: …",
// "Image file /input cannot be read!") through the thread's console, which Node writes to the
// server's stderr: a user's terminal then showed them in the middle of a run. The pool reports a
// failure by its kind (its promise rejects as before); nothing the engine prints gets out.
import { createRequire } from 'node:module';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) throw new Error('ocr-worker.mjs runs as a worker thread (tesseract.js createWorker), not as a script of its own');
const silent = () => undefined;
for (const method of /** @type {const} */ (['log', 'info', 'warn', 'error', 'debug', 'trace'])) console[method] = silent;
// Loaded only now: the engine binds console.error when it starts, and must find it silenced.
createRequire(import.meta.url)('tesseract.js/src/worker-script/node/index.js');
