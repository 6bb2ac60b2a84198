// What a failed asset lookup answers on the wire. The seed states 403 ASSET_FORBIDDEN,
// 404 ASSET_NOT_FOUND and 410 ASSET_EXPIRED (section 3 and 7); it leaves open what a deleted
// asset answers, where the reference server follows open point asset-after-delete (404
// ASSET_NOT_FOUND: a deleted asset is unknown from then on), unless the server's profile names
// another code for it.
import { errorCode, referenceChoice } from '../../spec/index.ts';

export type AssetLookupFailure = 'not_found' | 'forbidden' | 'expired' | 'deleted';

export interface AssetFailure {
  status: number;
  code: string;
  message: string;
}

function stated(code: string): number {
  const status = errorCode(code).statedStatus;
  if (status === null) throw new Error(`The seed states no status for ${code}`);
  return status;
}

export function assetFailure(
  reason: AssetLookupFailure,
  assetId?: string,
  afterDeleteCode = referenceChoice<string>('asset-after-delete', 'code'),
): AssetFailure {
  const subject = assetId === undefined ? 'The asset' : `Asset ${assetId}`;
  switch (reason) {
    case 'forbidden':
      return { status: stated('ASSET_FORBIDDEN'), code: 'ASSET_FORBIDDEN', message: `${subject} belongs to another project.` };
    case 'not_found':
      return { status: stated('ASSET_NOT_FOUND'), code: 'ASSET_NOT_FOUND', message: `${subject} does not exist.` };
    case 'expired':
      // Stated for referencing; open point asset-read-after-expiry extends it to reading and deleting.
      return { status: stated('ASSET_EXPIRED'), code: 'ASSET_EXPIRED', message: `${subject} has expired.` };
    case 'deleted':
      return {
        status: errorCode(afterDeleteCode).referenceStatus,
        code: afterDeleteCode,
        // Worded as for an unknown id: after deletion the asset is unknown (the reference choice).
        message: `${subject} does not exist.`,
      };
  }
}
