// Audio in decisions over HTTP (seed 2.2, 2.4, 2.5; open point audio-without-transcript): the
// acoustic features feed the scorer beside text, audio alone abstains, an undecodable clip is
// DECODE_FAILED, and nothing of the file reaches a response or the log.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { validateResponseBody } from '../../spec/index.ts';
import { wavClip } from '../../harness/samples/media.ts';
import { call, choiceQuestion, startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

async function uploaded(bytes: Uint8Array, contentType = 'audio/wav'): Promise<string> {
  const reply = await call(server, 'POST', '/v1/assets', { raw: bytes, contentType });
  expect(reply.status, reply.text).toBe(201);
  return reply.json.id as string;
}

const decide = (context: unknown, questions: Record<string, unknown>) => call(server, 'POST', '/v1/decide', { body: { context, questions } });

const lineQuestion = choiceQuestion({ silent_line: 'A silent line, nobody speaking', loud_caller: 'A loud caller talking continuously' });
const silentClip = wavClip([{ seconds: 3, amplitude: 0 }]);
const loudClip = wavClip([{ seconds: 3, amplitude: 0.9 }]);

describe('audio with text: the acoustic features feed the scorer', () => {
  test('the same text and question lean to "silent" with a silent clip and to "loud" with a loud one', async () => {
    const text = { type: 'text', text: 'Voicemail left on the support line.' };
    const withSilent = await decide([text, { type: 'audio', asset_id: await uploaded(silentClip) }], { line: lineQuestion });
    const withLoud = await decide([text, { type: 'audio', asset_id: await uploaded(loudClip) }], { line: lineQuestion });
    expect(withSilent.status, withSilent.text).toBe(200);
    expect(withLoud.status, withLoud.text).toBe(200);
    const silent = withSilent.json.answers.line;
    const loud = withLoud.json.answers.line;
    expect(silent.probabilities.silent_line).toBeGreaterThan(silent.probabilities.loud_caller);
    expect(loud.probabilities.loud_caller).toBeGreaterThan(loud.probabilities.silent_line);
    expect(validateResponseBody('decide', 200, withLoud.json, 'reference')?.valid).toBe(true);
  });

  test('usage counts the words of the features on top of the text', async () => {
    const text = { type: 'text', text: 'Voicemail left on the support line.' };
    const textOnly = await decide([text], { line: lineQuestion });
    const withAudio = await decide([text, { type: 'audio', asset_id: await uploaded(loudClip) }], { line: lineQuestion });
    expect(withAudio.json.usage.input_tokens).toBeGreaterThan(textOnly.json.usage.input_tokens);
  });
});

describe('audio alone: no transcript, so every choice and noul answer abstains (advisory)', () => {
  test('choice: abstain true, choice null, probabilities kept; noul: verdict null; multi and score answered', async () => {
    const reply = await decide([{ type: 'audio', asset_id: await uploaded(loudClip) }], {
      line: lineQuestion,
      spoken: { type: 'noul', instructions: 'Is someone speaking loudly?' },
      tags: { type: 'multi', options: { loud: null, silent: null } },
      loudness: { type: 'score', instructions: 'How loud is the caller?' },
    });
    expect(reply.status, reply.text).toBe(200);
    const { line, spoken, tags, loudness } = reply.json.answers;
    expect(line).toMatchObject({ type: 'choice', choice: null, abstain: true, abstention_status: 'advisory' });
    expect(Object.keys(line.probabilities)).toEqual(['silent_line', 'loud_caller']);
    expect(spoken).toMatchObject({ type: 'noul', verdict: null, abstain: true, abstention_status: 'advisory' });
    expect(tags.type).toBe('multi');
    expect(typeof loudness.score).toBe('number');
    expect(validateResponseBody('decide', 200, reply.json, 'reference')?.valid).toBe(true);
  });

  test('a text part beside the clip is read, and the answer is not forced to abstain', async () => {
    const reply = await decide(
      [
        { type: 'text', text: 'A loud caller talking continuously about billing.' },
        { type: 'audio', asset_id: await uploaded(loudClip) },
      ],
      { line: lineQuestion },
    );
    expect(reply.json.answers.line).toMatchObject({ choice: 'loud_caller', abstain: false });
  });
});

describe('a clip that cannot be decoded', () => {
  test('is stored (its header gives a duration) and a decision referencing it answers 400 DECODE_FAILED naming the part, not the content', async () => {
    const marker = `marker${Date.now().toString(36)}`;
    const adpcm = wavClip([{ seconds: 1, amplitude: 0.3 }], { comment: marker });
    new DataView(adpcm.buffer).setUint16(20, 2, true); // format tag 2: Microsoft ADPCM, which this server does not decode
    const assetId = await uploaded(adpcm);
    const reply = await decide(
      [
        { type: 'text', text: 'Listen to this.' },
        { type: 'audio', id: 'voicemail', asset_id: assetId },
      ],
      { line: lineQuestion },
    );
    expect(reply.status).toBe(400);
    expect(reply.json.error.code).toBe('DECODE_FAILED');
    expect(reply.json.error.message).toMatch(/^\/context\/1 \(id "voicemail"\): /);
    expect(reply.text).not.toContain(marker);
    expect(server.logs.join('')).not.toContain(marker);
  });
});
