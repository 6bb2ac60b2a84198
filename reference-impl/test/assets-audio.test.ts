// Reading audio (assets/reading/): acoustic features of synthesised clips with known values,
// what the compressed samples decode to, clean failures, the cache, and the words the scorer gets.
import { afterAll, describe, expect, test } from 'vitest';
import { flacSeconds, mp3Seconds, oggOpusSeconds, wavClip, wavSeconds } from '../../harness/samples/media.ts';
import { createAudioReader, type AcousticFeatures, type AudioReading } from '../assets/reading/audio.ts';
import { createDecodeBudget } from '../assets/reading/decode-budget.ts';
import { describeAudio } from '../assets/reading/audio-description.ts';

const reader = createAudioReader();
afterAll(() => reader.close());

function featuresOf(reading: AudioReading): AcousticFeatures {
  if ('failure' in reading) throw new Error(`expected features, got ${reading.failure.message}`);
  return reading.features;
}

/** RMS of a sine of peak amplitude a, in dBFS: 20·log10(a/√2). */
const sineDbfs = (amplitude: number) => 20 * Math.log10(amplitude / Math.SQRT2);

describe('acoustic features of a synthesised WAV', () => {
  test('2 s of tone then 2 s of silence, stereo 16 kHz: duration, rate, channels, half silence, loudness of the whole clip', async () => {
    const bytes = wavClip(
      [
        { seconds: 2, amplitude: 0.5 },
        { seconds: 2, amplitude: 0 },
      ],
      { sampleRate: 16000, channels: 2 },
    );
    const features = featuresOf(await reader.read(bytes, 'audio/wav'));
    expect(features.durationSeconds).toBeCloseTo(4, 2);
    expect(features.sampleRate).toBe(16000);
    expect(features.channels).toBe(2);
    expect(features.silenceShare).toBeGreaterThan(0.48);
    expect(features.silenceShare).toBeLessThan(0.52);
    // Half the time at the tone's level: the mean square halves, 3.01 dB under the tone.
    expect(Math.abs(features.rmsDbfs - (sineDbfs(0.5) - 10 * Math.log10(2)))).toBeLessThan(0.1);
    expect(Math.abs(features.peakDbfs - 20 * Math.log10(0.5))).toBeLessThan(0.1);
  });

  test('a steady tone of known amplitude reads its RMS level and no silence', async () => {
    const features = featuresOf(await reader.read(wavClip([{ seconds: 1, amplitude: 0.25 }], { sampleRate: 8000 }), 'audio/wav'));
    expect(Math.abs(features.rmsDbfs - sineDbfs(0.25))).toBeLessThan(0.1);
    expect(features.silenceShare).toBe(0);
    expect(features.channels).toBe(1);
  });

  test('a tone under the silence threshold (-50 dBFS) counts as silence; digital silence reads the floor', async () => {
    const faint = featuresOf(await reader.read(wavClip([{ seconds: 1, amplitude: 0.001 }]), 'audio/wav'));
    expect(faint.silenceShare).toBe(1);
    expect(Math.abs(faint.rmsDbfs - sineDbfs(0.001))).toBeLessThan(0.2);
    const silent = featuresOf(await reader.read(wavClip([{ seconds: 1, amplitude: 0 }]), 'audio/wav'));
    expect(silent).toMatchObject({ rmsDbfs: -120, peakDbfs: -120, silenceShare: 1 });
  });

  test("the harness's upload sample (8 kHz mono, a quiet 440 Hz tone) reads as such", async () => {
    const features = featuresOf(await reader.read(wavSeconds(3), 'audio/wav'));
    expect(features).toMatchObject({ durationSeconds: 3, sampleRate: 8000, channels: 1, silenceShare: 0 });
    expect(Math.abs(features.rmsDbfs - sineDbfs(2000 / 32768))).toBeLessThan(0.1);
  });
});

describe('compressed samples decode (WebAssembly decoders, loaded in the worker)', () => {
  test('MP3: silent frames at 48 kHz, mono, about its length', async () => {
    const features = featuresOf(await reader.read(mp3Seconds(2), 'audio/mpeg'));
    expect(features).toMatchObject({ sampleRate: 48000, channels: 1, silenceShare: 1, rmsDbfs: -120 });
    expect(Math.abs(features.durationSeconds - 2)).toBeLessThan(0.05);
  });

  test('FLAC: constant-zero frames at 16 kHz, mono', async () => {
    const features = featuresOf(await reader.read(flacSeconds(2), 'audio/flac'));
    expect(features).toMatchObject({ sampleRate: 16000, channels: 1, silenceShare: 1, rmsDbfs: -120 });
    // The sample's frames are 12 bytes each; the parser does not find the last one, which ends
    // the file before a full frame header's worth of bytes (0.25 s of 4000 samples is lost).
    expect(Math.abs(features.durationSeconds - 2)).toBeLessThanOrEqual(0.25);
  });

  test('Ogg Opus: CELT silence at 48 kHz, mono, its exact length (pre-skip and end trimming applied)', async () => {
    const features = featuresOf(await reader.read(oggOpusSeconds(2), 'audio/ogg'));
    expect(features).toMatchObject({ sampleRate: 48000, channels: 1, silenceShare: 1, durationSeconds: 2 });
  });
});

describe('files that cannot be read answer DECODE_FAILED, never content', () => {
  const marker = 'Xq7marker';
  const cases: Array<[string, Uint8Array, string]> = [
    ['random bytes as MP3', new Uint8Array(2000).map((_, i) => (i * 37) % 251), 'audio/mpeg'],
    ['a truncated FLAC', flacSeconds(1).subarray(0, 60), 'audio/flac'],
    [
      'an Ogg stream of an unknown codec',
      (() => {
        const ogg = oggOpusSeconds(1);
        ogg.set(new TextEncoder().encode('SpeexHdr'), 28);
        return ogg;
      })(),
      'audio/ogg',
    ],
    [
      'a WAV of ADPCM samples',
      (() => {
        const wav = wavClip([{ seconds: 0.5, amplitude: 0.3 }], { comment: marker });
        new DataView(wav.buffer).setUint16(20, 2, true); // format tag 2: Microsoft ADPCM
        return wav;
      })(),
      'audio/wav',
    ],
    ['a WAV without audio data', wavClip([], { comment: marker }), 'audio/wav'],
    ['text declared audio/wav', new TextEncoder().encode(`RIFF....WAVE ${marker}`), 'audio/wav'],
  ];
  test.each(cases)('%s', async (_name, bytes, mimeType) => {
    const reading = await reader.read(bytes, mimeType);
    expect('failure' in reading && reading.failure.code).toBe('DECODE_FAILED');
    expect(JSON.stringify(reading)).not.toContain(marker);
  });

  test('a reading past its time limit answers DECODE_FAILED, saying so', async () => {
    const hasty = createAudioReader({ timeoutMs: 1 });
    try {
      const reading = await hasty.read(wavSeconds(5), 'audio/wav');
      expect(reading).toEqual({ failure: { code: 'DECODE_FAILED', message: 'The audio/wav file could not be decoded in 0.001 s.' } });
    } finally {
      await hasty.close();
    }
  });

  // Waiting for other files to be read is the server's load: it counts against the wait limit,
  // not against the decode's own time limit.
  test('a clip that waits longer than the decode limit for a busy budget is still decoded', async () => {
    const budget = createDecodeBudget({ budgetBytes: 1 });
    // 3.5 s to decode (starting the decoder's worker included, slower on a busy machine), after a
    // wait of 4.5 s for the budget: the wait alone is over the decode's limit.
    const patient = createAudioReader({ budget, timeoutMs: 3_500 });
    try {
      const busy = budget.run(1, Date.now() + 10_000, () => new Promise((resolve) => setTimeout(resolve, 4_500)));
      const reading = await patient.read(wavSeconds(1), 'audio/wav');
      expect(featuresOf(reading).durationSeconds).toBeCloseTo(1, 2);
      await busy;
    } finally {
      await patient.close();
    }
  });

  test('a clip the busy budget keeps waiting past its wait limit answers DECODE_FAILED, saying why', async () => {
    const budget = createDecodeBudget({ budgetBytes: 1 });
    const waiting = createAudioReader({ budget, waitLimitMs: 200 });
    try {
      const busy = budget.run(1, Date.now() + 10_000, () => new Promise((resolve) => setTimeout(resolve, 1_000)));
      const reading = await waiting.read(wavSeconds(1), 'audio/wav');
      expect(reading).toEqual({
        failure: { code: 'DECODE_FAILED', message: "The audio/wav file waited 0.2 s for the server's other files to be read, and was not decoded." },
      });
      await busy;
    } finally {
      await waiting.close();
    }
  });
});

describe('the cache', () => {
  test('one decode per file and type: concurrent and later reads share it', async () => {
    const own = createAudioReader();
    try {
      const bytes = wavClip([{ seconds: 1, amplitude: 0.2 }]);
      const [first, second] = await Promise.all([own.read(bytes, 'audio/wav'), own.read(bytes, 'audio/wav')]);
      expect(second).toEqual(first);
      await own.read(new Uint8Array(bytes), 'audio/wav');
      expect(own.stats.decodes).toBe(1);
      await own.read(wavClip([{ seconds: 1, amplitude: 0.3 }]), 'audio/wav');
      expect(own.stats.decodes).toBe(2);
    } finally {
      await own.close();
    }
  });

  test('a closed reader answers reads in flight with DECODE_FAILED and starts a new worker for the next', async () => {
    const own = createAudioReader();
    const inFlight = own.read(wavSeconds(10), 'audio/wav');
    await own.close();
    expect('failure' in (await inFlight)).toBe(true);
    expect('features' in (await own.read(wavSeconds(10), 'audio/wav'))).toBe(true);
    await own.close();
  });
});

describe('the words the scorer reads', () => {
  const base: AcousticFeatures = { durationSeconds: 10, sampleRate: 16000, channels: 1, rmsDbfs: -22, peakDbfs: -6, silenceShare: 0.3 };
  test.each<[Partial<AcousticFeatures>, string]>([
    [{}, 'moderate, with pauses'],
    [{ rmsDbfs: -120, silenceShare: 1 }, 'silent'],
    [{ rmsDbfs: -40, silenceShare: 0.7, durationSeconds: 3 }, 'quiet, mostly silence, short clip'],
    [{ rmsDbfs: -10, silenceShare: 0.05, durationSeconds: 25 }, 'loud, continuous sound, long clip'],
  ])('%j → %s', (change, words) => {
    expect(describeAudio({ ...base, ...change })).toBe(words);
  });
});
