// Media privacy (seed 2.5: "The file content is never returned by the API. Media files, OCR text
// and transcripts are never logged and never returned"). A black-box suite cannot see logs; it
// can see every response. Each check uploads files carrying a marker word made for the run —
// the text layer of a PDF, the text of a DOCX, the comment of a WAV — references them in
// decisions, and looks for the marker in every body and header that comes back, successes and
// errors alike. Text a server extracts from a file (its text layer, OCR, a transcript) would
// carry the marker with it.
import { randomBytes } from 'node:crypto';
import { uploadSample, type StoredAsset } from '../harness/assets-support.ts';
import { area, type CheckRequirements } from '../harness/check.ts';
import type { CheckContext } from '../harness/context.ts';
import { describeReply, expectSuccess } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import { choiceQuestion, mediaPart, textPart } from '../harness/requests.ts';
import { docxWithPages, pdfWithPages, wavClip, type SampleMimeType } from '../harness/samples/media.ts';

const ASSETS_IN_DECISIONS: CheckRequirements = { capabilities: ['assets', 'multimodal'] };

/**
 * A word no server knows: lowercase letters and digits only, so that a server that normalises or
 * tokenises extracted text (lowercasing, splitting on punctuation) still carries it whole.
 */
function newMarker(): string {
  return `zq${randomBytes(9).toString('hex')}`;
}

/** The sentence each file carries. Printable ASCII: the PDF sample's text layer takes nothing else. */
const sentenceWith = (marker: string) => `Customer reference ${marker} asks about a refund.`;

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

interface MarkedFiles {
  marker: string;
  pdf: StoredAsset;
  docx: StoredAsset;
  wav: StoredAsset;
}

/** Uploads a text-layer PDF, a DOCX and a WAV that carry the marker; each must be stored. */
async function uploadMarkedFiles(t: CheckContext): Promise<MarkedFiles> {
  const marker = newMarker();
  const sentence = sentenceWith(marker);
  const files: Array<[SampleMimeType, Uint8Array]> = [
    ['application/pdf', pdfWithPages(1, { pageText: () => sentence })],
    [DOCX_TYPE, docxWithPages(1, { pageText: () => sentence })],
    ['audio/wav', wavClip([{ seconds: 1, amplitude: 0.3 }], { comment: sentence })],
  ];
  const stored: StoredAsset[] = [];
  for (const [mimeType, bytes] of files) stored.push(await uploadSample(t.a, mimeType, bytes));
  return { marker, pdf: stored[0]!, docx: stored[1]!, wav: stored[2]! };
}

/** A context that references all three files after a text part: the request that must succeed. */
function contextReferencing(files: MarkedFiles): Array<Record<string, unknown>> {
  return [
    textPart('Please read the attached files about my order.'),
    mediaPart('document', files.pdf.asset.id, 'invoice-pdf'),
    mediaPart('document', files.docx.asset.id, 'letter-docx'),
    mediaPart('audio', files.wav.asset.id, 'voicemail'),
  ];
}

const questions = () => ({ topic: choiceQuestion() });

/** Where in a reply the marker shows, case-insensitively: the body, or a header by name. */
function markerPlaces(reply: Reply, marker: string): string[] {
  const places: string[] = [];
  if (reply.text.toLowerCase().includes(marker)) places.push('the body');
  for (const [name, value] of Object.entries(reply.headers)) if (String(value).toLowerCase().includes(marker)) places.push(`header ${name}`);
  return places;
}

function expectNoMarker(t: CheckContext, replies: ReadonlyArray<readonly [string, Reply]>, marker: string): void {
  for (const [what, reply] of replies) {
    const places = markerPlaces(reply, marker);
    if (places.length > 0) {
      t.fail(
        `no text of an uploaded file in the reply to ${what} (seed 2.5)`,
        `the marker word ${marker}, which only the files carry, in ${places.join(' and ')}: ${describeReply(reply)}`,
      );
    }
  }
}

export const mediaPrivacyChecks = area('media-privacy', [
  {
    id: 'MEDIA-EXTRACTED-TEXT-NEVER-RETURNED',
    level: 'MUST',
    seedSections: ['2.5'],
    title:
      'Text inside uploaded files (a PDF text layer, a DOCX, a WAV comment) appears in no response body or header: upload, GET, or a decision that reads them',
    requires: ASSETS_IN_DECISIONS,
    async run(t) {
      const files = await uploadMarkedFiles(t);
      const replies: Array<[string, Reply]> = [
        ['the PDF upload', files.pdf.reply],
        ['the DOCX upload', files.docx.reply],
        ['the WAV upload', files.wav.reply],
      ];
      for (const [name, stored] of [
        ['PDF', files.pdf],
        ['DOCX', files.docx],
        ['WAV', files.wav],
      ] as const) {
        const read = await t.a.getAsset(stored.asset.id);
        expectSuccess(read, `for GET /v1/assets/${stored.asset.id} by its owner`);
        replies.push([`GET of the ${name} asset`, read]);
      }
      const decided = await t.a.decide({ context: contextReferencing(files), questions: questions() });
      expectSuccess(decided, "for a decision referencing the caller's own PDF, DOCX and WAV assets");
      replies.push(['the decision referencing them', decided]);
      expectNoMarker(t, replies, files.marker);
    },
  },
  {
    id: 'MEDIA-EXTRACTED-TEXT-NOT-IN-ERRORS',
    level: 'MUST',
    seedSections: ['2.5', '7'],
    title:
      'An error answering a decision that references uploaded files carries none of their text: the decision that passed with one thing changed (an unknown field in a part, a video part added)',
    requires: ASSETS_IN_DECISIONS,
    async run(t) {
      const files = await uploadMarkedFiles(t);
      const context = contextReferencing(files);
      // The request as it passes, so that each refusal can only come from the one thing changed.
      expectSuccess(await t.a.decide({ context, questions: questions() }), 'for the decision referencing the files, unchanged');
      const changed: Array<[string, unknown[]]> = [
        ['an unknown field in the PDF part', context.map((part, index) => (index === 1 ? { ...part, note: 'see the text' } : part))],
        ['a video part added', [...context, mediaPart('video', files.wav.asset.id, 'clip')]],
      ];
      const replies: Array<[string, Reply]> = [];
      for (const [what, changedContext] of changed) {
        const reply = await t.a.decide({ context: changedContext, questions: questions() });
        if (reply.status < 400 || reply.status >= 500) t.fail(`a 4xx error for the decision with ${what} (seed 2.2, 7)`, describeReply(reply));
        replies.push([`the decision with ${what}`, reply]);
      }
      expectNoMarker(t, replies, files.marker);
    },
  },
]);
