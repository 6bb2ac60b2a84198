// Rejections of an upload, with the status the reference server answers. Stated codes carry the
// seed's status; name-only codes the reference status of open point name-only-statuses.
import { errorCode } from '../../spec/index.ts';

export interface UploadRejection {
  ok: false;
  status: number;
  code: string;
  /** Names types, sizes, pages and seconds only: never anything read from the file. */
  message: string;
}

export type UploadFailureCode =
  | 'INVALID_REQUEST'
  | 'UNSUPPORTED_MIME_TYPE'
  | 'ASSET_TOO_LARGE'
  | 'DOCUMENT_TOO_MANY_PAGES'
  | 'AUDIO_TOO_LONG'
  | 'DECODE_FAILED';

export function uploadRejection(code: UploadFailureCode, message: string): UploadRejection {
  return { ok: false, status: errorCode(code).referenceStatus, code, message };
}
