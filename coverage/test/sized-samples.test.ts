// Files grown to an exact size: the size asked for, to the byte, at each family's limits; the same
// start as the valid sample of the type (its signature), so that only the size differs.
import { describe, expect, test } from 'vitest';
import { acceptedSamples, sizeLimitReadings, type SampleMimeType } from '../../harness/samples/media.ts';
import { familyOfMimeType } from '../../spec/index.ts';
import { reachableSize, SIZABLE_TYPES, sampleOfSize } from '../sized-samples.ts';

describe.each(SIZABLE_TYPES)('%s', (type) => {
  const family = familyOfMimeType(type as SampleMimeType);
  const { decimal, binary } = sizeLimitReadings(family);

  test('grown to the decimal limit and one byte past the binary one, to the byte, keeping the signature of the type', () => {
    for (const asked of [decimal, binary + 1]) {
      const size = reachableSize(type, asked)!;
      expect(size - asked).toBeLessThanOrEqual(1);
      const file = sampleOfSize(type as SampleMimeType, size)!;
      expect(file.byteLength).toBe(size);
      // A text file has no signature; an MP3 grown starts with its ID3 tag instead of a frame.
      const signature = type.startsWith('text/') || type === 'audio/mpeg' ? 0 : 4;
      expect(Buffer.from(file.subarray(0, signature))).toEqual(Buffer.from(acceptedSamples[type as SampleMimeType].subarray(0, signature)));
    }
  });
});

test('a type the kit cannot grow is said so, and nothing is built to find out', () => {
  expect(reachableSize('image/webp', 1000)).toBeUndefined();
  expect(sampleOfSize('image/webp', 1000)).toBeUndefined();
  expect(reachableSize('audio/wav', 1001)).toBe(1002);
});
