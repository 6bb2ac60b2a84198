// POST /v1/decide (seed 2.1 to 2.4, 4.1, 8).
import type { FastifyInstance } from 'fastify';
import { familyOfMimeType, partMayReference, type Schemas } from '../../../spec/index.ts';
import { declaredImageSize, isPictureType, limitMessages, MAX_REQUEST_PIXELS } from '../../assets/memory-limits.ts';
import type { AssetReader, ReadOutcome } from '../../assets/reading/asset-reader.ts';
import type { AudioReader } from '../../assets/reading/audio.ts';
import { describeAudio } from '../../assets/reading/audio-description.ts';
import { assetFailure, type AssetStore } from '../../assets/store.ts';
import type { DecisionEngine } from '../../decision/index.ts';
import { abstainWithoutReadableContent, applyAbstentionChoices } from '../abstention.ts';
import { shapeAnswers } from '../answer-shapes.ts';
import { checkDecideRequest, partLabel } from '../decide-request.ts';
import type { DecisionLog } from '../decision-log.ts';
import type { ServerProfile } from '../profile.ts';
import { failure, sendFailure, type ApiFailure } from '../errors.ts';
import { MODEL_ID } from './models.ts';

type Part = Exclude<Schemas['DecideRequest']['context'], string>[number];

export interface DecideDependencies {
  engine: DecisionEngine;
  assets: AssetStore;
  audio: AudioReader;
  decisions: DecisionLog;
  reader: AssetReader;
  now: () => Date;
}

interface ContextText {
  text: string;
  /**
   * True when audio is all the context has to say: no text part, no file with readable words.
   * Without a transcript the answers then abstain (open point audio-without-transcript).
   */
  onlyAcoustic: boolean;
}

/** A part's contribution: its text, and whether it is the words of an audio clip's features. */
type Piece = { text: string; acoustic: boolean } | { failure: ApiFailure };

/**
 * The error for a file that could not be read (open point media-reading-failures): the kind of
 * failure and the part that referenced the file decide the code. The message names the part and,
 * for a file over a reading limit, the limit (memory-limits.ts), never anything read from the file.
 */
function readingFailure(outcome: Extract<ReadOutcome, { failure: string }>, partType: string, mimeType: string, where: string): ApiFailure {
  if (outcome.failure === 'over-limit') return failure('DECODE_FAILED', `${where}: ${outcome.message}`);
  if (outcome.failure === 'undecodable') return failure('DECODE_FAILED', `${where}: the ${mimeType} file could not be decoded.`);
  return partType === 'image'
    ? failure('VISION_FAILED', `${where}: the image could not be read.`)
    : failure('OCR_FAILED', `${where}: the scan could not be read.`);
}

/**
 * The text the model reads: a string context as is, or the parts in order, joined with newlines:
 * text parts as sent, documents and pictures as read by the asset reader (seed 2.2), an audio
 * part as the words of its acoustic features (audio-description.ts). Every asset is checked
 * before any is read; the reads then run together and are joined in part order.
 */
async function contextText(
  body: Schemas['DecideRequest'],
  projectId: string,
  deps: Pick<DecideDependencies, 'assets' | 'reader' | 'audio'>,
  profile: Pick<ServerProfile, 'assetAfterDeleteCode' | 'partFamilyMismatchCode'>,
): Promise<ContextText | { failure: ApiFailure }> {
  if (typeof body.context === 'string') return { text: body.context, onlyAcoustic: false };
  // Reads start once every part has passed its checks.
  const pieces: (Piece | (() => Promise<Piece>))[] = [];
  /** Pixels the distinct pictures of this request declare (memory-limits.ts MAX_REQUEST_PIXELS). */
  const pictures = new Map<string, number>();
  let picturePixels = 0;
  for (const [index, part] of (body.context as Part[]).entries()) {
    if (part.type === 'text') {
      pieces.push({ text: part.text, acoustic: false });
      continue;
    }
    const where = `/context/${index}${partLabel(body, `/context/${index}`)}`;
    const found = await deps.assets.readBytes(projectId, part.asset_id);
    if (!found.ok) {
      const { code, message } = assetFailure(found.reason, part.asset_id, profile.assetAfterDeleteCode);
      return { failure: failure(code, `${where}: ${message}`) };
    }
    const mimeType = found.asset.mime_type;
    const family = familyOfMimeType(mimeType);
    // Seed 2.2 (a document part may reference a page image); any other mismatch is the
    // profile's choice on open point part-asset-family.
    if (!partMayReference(part.type, family)) {
      return { failure: failure(profile.partFamilyMismatchCode, `${where}: a ${part.type} part cannot reference a ${mimeType} asset.`) };
    }
    if (isPictureType(mimeType) && !pictures.has(found.asset.sha256)) {
      const size = declaredImageSize(found.bytes);
      const pixels = size ? size.width * size.height : 0;
      pictures.set(found.asset.sha256, pixels);
      picturePixels += pixels;
      if (picturePixels > MAX_REQUEST_PIXELS) return { failure: failure('DECODE_FAILED', `${where}: ${limitMessages.requestPixels(picturePixels)}`) };
    }
    if (family === 'audio') {
      pieces.push(() =>
        deps.audio
          .read(found.bytes, mimeType, found.asset.sha256)
          .then(
            (reading): Piece =>
              'failure' in reading
                ? { failure: failure(reading.failure.code, `${where}: ${reading.failure.message}`) }
                : { text: describeAudio(reading.features), acoustic: true },
          ),
      );
      continue;
    }
    pieces.push(() =>
      deps.reader
        .read(found.asset, found.bytes)
        .then(
          (outcome): Piece =>
            'failure' in outcome ? { failure: readingFailure(outcome, part.type, mimeType, where) } : { text: outcome.text, acoustic: false },
        ),
    );
  }
  const texts: string[] = [];
  let readWords = false;
  let readAudio = false;
  for (const piece of pieces.map((piece) => (typeof piece === 'function' ? piece() : piece))) {
    const read = await piece;
    if ('failure' in read) return read;
    // A file with nothing to read (a photograph without words) adds no empty line.
    if (read.text === '') continue;
    texts.push(read.text);
    if (read.acoustic) readAudio = true;
    else readWords = true;
  }
  return { text: texts.join('\n'), onlyAcoustic: readAudio && !readWords };
}

/**
 * A noul question without instructions (allowed only where the profile does not require them,
 * open point noul-instructions-required) is scored on its id read as words: "wants_refund"
 * asks "wants refund". The scorer itself always reads instructions.
 */
function withDefaultInstructions(questions: Schemas['DecideRequest']['questions']): Schemas['DecideRequest']['questions'] {
  const entries = Object.entries(questions);
  if (!entries.some(([, question]) => question.type === 'noul' && typeof question.instructions !== 'string')) return questions;
  return Object.fromEntries(
    entries.map(([id, question]) => [
      id,
      question.type === 'noul' && typeof question.instructions !== 'string' ? { ...question, instructions: id.replace(/[_-]+/g, ' ').trim() || id } : question,
    ]),
  );
}

export function registerDecide(app: FastifyInstance, deps: DecideDependencies): void {
  app.post('/v1/decide', async (request, reply) => {
    const invalid = checkDecideRequest(request.body, app.profile);
    if (invalid) return sendFailure(request, reply, invalid);
    const body = request.body as Schemas['DecideRequest'];

    const context = await contextText(body, request.projectId, deps, app.profile);
    if ('failure' in context) return sendFailure(request, reply, context.failure);

    let decision;
    try {
      decision = await deps.engine.decide(context.text, withDefaultInstructions(body.questions));
    } catch (error) {
      request.log.error({ err: { name: (error as Error).name, stack: (error as Error).stack } }, 'scoring failed');
      const code = Array.isArray(body.context) && body.context.some((part) => part.type !== 'text') ? 'MULTIMODAL_INFERENCE_FAILED' : 'INFERENCE_FAILED';
      return sendFailure(request, reply, failure(code, 'The model failed to score this request.'));
    }

    deps.decisions.recordDecision({
      projectId: request.projectId,
      requestId: request.id,
      questionIds: Object.keys(body.questions),
      createdAt: deps.now().toISOString(),
    });
    const textOnly = typeof body.context === 'string' || body.context.every((part) => part.type === 'text');
    const judged = applyAbstentionChoices(decision.answers, body.questions, textOnly, app.profile);
    const answers = shapeAnswers(context.onlyAcoustic ? abstainWithoutReadableContent(judged) : judged, app.profile.answerShapes);
    const response: Schemas['DecideResponse'] = { model: MODEL_ID, answers, usage: { input_tokens: decision.inputTokens } };
    return reply.code(app.profile.decideStatus).send(response);
  });
}
