// Latency of reading audio in the reference server: `npx tsx load/bench/audio-reading.ts [runs]`.
//
// For each clip, in milliseconds:
// - cold:   the first read by a fresh reader (worker thread start, the format's decoder imported
//           and compiled, decode, features);
// - warm:   median and max of `runs` reads of other files of the same format and length on the
//           started worker (decode and features only; each file differs, so none is cached);
// - cached: a read of a file already read (the sha256 lookup);
// - main thread: the longest event-loop delay seen while the warm reads ran (hashing, copying,
//           messages): what a text-only decision could wait behind.
// The compressed samples of harness/samples are silence (their frames carry no coded bits), so
// their decode is cheaper than music or speech would be. Asserts nothing.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { mp3Seconds, oggOpusSeconds, wavClip } from '../../harness/samples/media.ts';
import { createAudioReader } from '../../reference-impl/assets/reading/audio.ts';

const RUNS = Number(process.argv[2] ?? 10);

/** Speech-like level and rhythm: 0.8 s of tone, 0.2 s of silence, at 16 kHz mono. */
function speechLikeWav(seconds: number, variant: number): Uint8Array {
  const segments = Array.from({ length: Math.ceil(seconds) }, () => [
    { seconds: 0.8, amplitude: 0.1 + variant * 1e-4 },
    { seconds: 0.2, amplitude: 0 },
  ]).flat();
  return wavClip(segments, { sampleRate: 16000 });
}

interface Clip {
  name: string;
  mimeType: string;
  /** A different file of the same format and length for each variant. */
  file(variant: number): Uint8Array;
}

const clips: Clip[] = [
  { name: 'WAV 5 s (16 kHz mono, tone and pauses)', mimeType: 'audio/wav', file: (v) => speechLikeWav(5, v) },
  { name: 'WAV 30 s (16 kHz mono, tone and pauses)', mimeType: 'audio/wav', file: (v) => speechLikeWav(30, v) },
  { name: 'MP3 30 s (48 kHz, silent frames)', mimeType: 'audio/mpeg', file: (v) => mp3Seconds(30 - v * 0.03) },
  { name: 'Ogg Opus 30 s (48 kHz, CELT silence)', mimeType: 'audio/ogg', file: (v) => oggOpusSeconds(30 - v * 0.02) },
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => value.toFixed(1).padStart(7);

async function timed(action: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  const result = await action();
  if (result && typeof result === 'object' && 'failure' in result) throw new Error(`The bench clip could not be read: ${JSON.stringify(result)}`);
  return performance.now() - start;
}

console.log(`audio reading, ${RUNS} warm runs per clip (ms)`);
console.log(`${'clip'.padEnd(42)}    cold  warm p50  warm max   cached  main-thread max delay`);
for (const clip of clips) {
  const reader = createAudioReader();
  try {
    const cold = await timed(() => reader.read(clip.file(0), clip.mimeType));
    const files = Array.from({ length: RUNS }, (_, i) => clip.file(i + 1));
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const warm: number[] = [];
    for (const file of files) warm.push(await timed(() => reader.read(file, clip.mimeType)));
    delay.disable();
    const cached = await timed(() => reader.read(files[0]!, clip.mimeType));
    console.log(`${clip.name.padEnd(42)} ${ms(cold)} ${ms(median(warm))}   ${ms(Math.max(...warm))}  ${ms(cached)}  ${ms(delay.max / 1e6)}`);
  } finally {
    await reader.close();
  }
}
