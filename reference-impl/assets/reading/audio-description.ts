// An audio part as the scorer reads it: its acoustic features as a few plain words ("quiet,
// with pauses, short clip"), put in the context where the part stands. The scorer is lexical
// (decision/features.ts), so the features reach it as words it can compare with option texts and
// instructions: a choice between "silent line" and "customer speaking" leans on them. They add
// their distinct features to usage.input_tokens like any text.
//
// Buckets, and why:
//   loudness (RMS dBFS)     silent < -60 (nothing but noise floor), quiet < -35 (a distant or
//                           low-gain voice), moderate < -15 (ordinary speech recordings sit near
//                           -20), loud otherwise;
//   silence share           mostly silence ≥ 0.6, with pauses ≥ 0.2, continuous sound otherwise
//                           (speech has pauses: a fifth of a clip or more is usual);
//   duration                short clip < 5 s, long clip > 20 s (past the seed's recommended
//                           20 s), nothing between.
import type { AcousticFeatures } from './audio.ts';

export const SILENT_BELOW_DBFS = -60;
export const QUIET_BELOW_DBFS = -35;
export const MODERATE_BELOW_DBFS = -15;
export const MOSTLY_SILENCE_SHARE = 0.6;
export const PAUSES_SHARE = 0.2;
export const SHORT_CLIP_SECONDS = 5;
export const LONG_CLIP_SECONDS = 20;

function loudnessWord(rmsDbfs: number): string {
  if (rmsDbfs < SILENT_BELOW_DBFS) return 'silent';
  if (rmsDbfs < QUIET_BELOW_DBFS) return 'quiet';
  if (rmsDbfs < MODERATE_BELOW_DBFS) return 'moderate';
  return 'loud';
}

function silenceWords(silenceShare: number): string {
  if (silenceShare >= MOSTLY_SILENCE_SHARE) return 'mostly silence';
  if (silenceShare >= PAUSES_SHARE) return 'with pauses';
  return 'continuous sound';
}

function lengthWords(seconds: number): string | undefined {
  if (seconds < SHORT_CLIP_SECONDS) return 'short clip';
  if (seconds > LONG_CLIP_SECONDS) return 'long clip';
  return undefined;
}

/** The words an audio part contributes to the context the scorer reads. */
export function describeAudio(features: AcousticFeatures): string {
  const loudness = loudnessWord(features.rmsDbfs);
  // A silent clip is silent throughout: its silence share says nothing more.
  const words = loudness === 'silent' ? [loudness] : [loudness, silenceWords(features.silenceShare)];
  const length = lengthWords(features.durationSeconds);
  if (length) words.push(length);
  return words.join(', ');
}
