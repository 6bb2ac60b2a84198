// POST /v1/decide (seed 2.1 to 2.4, 4.1, 8).
import type { FastifyInstance } from 'fastify';
import type { Schemas } from '../../../spec/index.ts';
import { familyOf } from '../../assets/families.ts';
import { extractText } from '../../assets/media.ts';
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

// Seed 2.2: a document part may also reference a page image (PNG, JPEG or WebP).
// Any other family mismatch is the reference choice of open point part-asset-family.
const FAMILIES_BY_PART: Record<string, string[]> = { image: ['image'], document: ['document', 'image'], audio: ['audio'] };

type Part = Exclude<Schemas['DecideRequest']['context'], string>[number];

export interface DecideDependencies {
  engine: DecisionEngine;
  assets: AssetStore;
  audio: AudioReader;
  decisions: DecisionLog;
  now: () => Date;
}

interface ContextText {
  text: string;
  /**
   * True when audio is all the context has to say: no text part, no readable document. Without a
   * transcript the answers then abstain (open point audio-without-transcript).
   */
  onlyAcoustic: boolean;
}

/**
 * The text the model reads: a string context as is, or the parts joined with newlines, in order;
 * an audio part stands there as the words of its acoustic features (audio-description.ts).
 */
async function contextText(
  body: Schemas['DecideRequest'],
  projectId: string,
  { assets, audio }: Pick<DecideDependencies, 'assets' | 'audio'>,
  profile: Pick<ServerProfile, 'assetAfterDeleteCode' | 'partFamilyMismatchCode'>,
): Promise<ContextText | { failure: ApiFailure }> {
  if (typeof body.context === 'string') return { text: body.context, onlyAcoustic: false };
  const pieces: string[] = [];
  let readText = false;
  let readAudio = false;
  for (const [index, part] of (body.context as Part[]).entries()) {
    if (part.type === 'text') {
      pieces.push(part.text);
      readText = true;
      continue;
    }
    const where = `/context/${index}${partLabel(body, `/context/${index}`)}`;
    const found = await assets.readBytes(projectId, part.asset_id);
    if (!found.ok) {
      const { code, message } = assetFailure(found.reason, part.asset_id, profile.assetAfterDeleteCode);
      return { failure: failure(code, `${where}: ${message}`) };
    }
    const family = familyOf(found.asset.mime_type);
    if (!FAMILIES_BY_PART[part.type]?.includes(family)) {
      return { failure: failure(profile.partFamilyMismatchCode, `${where}: a ${part.type} part cannot reference a ${found.asset.mime_type} asset.`) };
    }
    if (family === 'audio') {
      const reading = await audio.read(found.bytes, found.asset.mime_type, found.asset.sha256);
      if ('failure' in reading) return { failure: failure(reading.failure.code, `${where}: ${reading.failure.message}`) };
      pieces.push(describeAudio(reading.features));
      readAudio = true;
      continue;
    }
    // Media are read as far as this server can: text assets feed the scorer; other media add
    // nothing yet, and the answer's abstain flag stays advisory (seed 2.4).
    const text = extractText(found.bytes, found.asset.mime_type);
    if (text) {
      pieces.push(text);
      readText = true;
    }
  }
  return { text: pieces.join('\n'), onlyAcoustic: readAudio && !readText };
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
    entries.map(([id, question]) => [id, question.type === 'noul' && typeof question.instructions !== 'string' ? { ...question, instructions: id.replace(/[_-]+/g, ' ').trim() || id } : question]),
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
