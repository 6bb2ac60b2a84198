// Proof of the media privacy checks: they pass against the reference server and fail against
// servers that hand back text they extracted from uploaded files, in a decision, in the asset's
// metadata, in a header, or in an error message.
import { describe } from 'vitest';
import { isOperation, rewriteJson, type Mutation, type ProxiedRequest, type ProxiedResponse } from '../../harness/testing/mutating-proxy.ts';
import { proveChecks, type BrokenServer } from './support/proof.ts';

const isUpload = (sent: ProxiedRequest) => sent.method === 'POST' && sent.path.split('?')[0] === '/v1/assets';
const isDecide = (sent: ProxiedRequest) => isOperation(sent, 'POST', '/v1/decide');

/** The text layer of a simple PDF: the strings its content streams show with Tj. */
function pdfText(body: Buffer): string | undefined {
  if (body.subarray(0, 5).toString('latin1') !== '%PDF-') return undefined;
  const shown = [...body.toString('latin1').matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g)].map((match) => match[1]!.replace(/\\(.)/g, '$1'));
  return shown.length > 0 ? shown.join(' ') : undefined;
}

/** What a leaking server knows: the text of each PDF uploaded through it, and of those a request references. */
interface ExtractedTexts {
  ofAsset(assetId: string): string | undefined;
  referenced(): string | undefined;
}

/**
 * A broken server that reads the text layer of every PDF uploaded through it (as a server that
 * extracts text would) and hands it back the way `leak` says.
 */
function leakingExtractedText(leak: (received: ProxiedResponse, sent: ProxiedRequest, texts: ExtractedTexts) => ProxiedResponse): Mutation {
  const texts = new Map<string, string>();
  return {
    response(received, sent) {
      if (isUpload(sent) && received.status === 201) {
        const text = pdfText(sent.body);
        if (text) texts.set(JSON.parse(received.body.toString('utf8')).id as string, text);
      }
      return leak(received, sent, {
        ofAsset: (assetId) => texts.get(assetId),
        referenced: () =>
          [...sent.body.toString('utf8').matchAll(/asset_[A-Za-z0-9_-]{8,64}/g)].map((match) => texts.get(match[0])).find((text) => text !== undefined),
      });
    },
  };
}

const inDecisions: BrokenServer = {
  fault: 'returns the text extracted from referenced PDFs in the decision (an extra context_text field)',
  mutation: () =>
    leakingExtractedText((received, sent, texts) => {
      const text = texts.referenced();
      return isDecide(sent) && received.status < 300 && text ? rewriteJson(received, (body) => ({ ...body, context_text: text })) : received;
    }),
};

const inAssetMetadata: BrokenServer = {
  fault: 'describes an uploaded PDF with its text (an extra preview field on the Asset)',
  mutation: () =>
    leakingExtractedText((received, sent, texts) => {
      if (!(isUpload(sent) || isOperation(sent, 'GET', '/v1/assets/')) || received.status >= 300) return received;
      return rewriteJson(received, (asset) => {
        const text = texts.ofAsset(asset.id);
        return text ? { ...asset, preview: text.slice(0, 80) } : asset;
      });
    }),
};

const inHeaders: BrokenServer = {
  fault: 'sends the text it read from the referenced files in a debugging header',
  mutation: () =>
    leakingExtractedText((received, sent, texts) => {
      const text = texts.referenced();
      return isDecide(sent) && text ? { ...received, headers: { ...received.headers, 'x-debug-context': text } } : received;
    }),
};

const inErrorMessages: BrokenServer = {
  fault: 'quotes the text of the referenced files in its error messages',
  mutation: () =>
    leakingExtractedText((received, sent, texts) => {
      const text = texts.referenced();
      if (!isDecide(sent) || received.status < 400 || !text) return received;
      return rewriteJson(received, (body) => ({ error: { ...body.error, message: `${body.error.message} (context: ${text})` } }));
    }),
};

describe('media privacy checks', () => {
  proveChecks('media-privacy', {
    'MEDIA-EXTRACTED-TEXT-NEVER-RETURNED': [inDecisions, inAssetMetadata, inHeaders],
    'MEDIA-EXTRACTED-TEXT-NOT-IN-ERRORS': [inErrorMessages],
  });
});
