// Asset ids: "asset_" and 24 URL-safe characters from 18 random bytes (144 bits), well inside the
// seed's pattern ^asset_[A-Za-z0-9_-]{8,64}$. Ids double as file names, which that alphabet allows.
import { randomBytes } from 'node:crypto';

const assetIdPattern = /^asset_[A-Za-z0-9_-]{8,64}$/;

export function newAssetId(): string {
  return `asset_${randomBytes(18).toString('base64url')}`;
}

export function isAssetId(value: string): boolean {
  return assetIdPattern.test(value);
}
