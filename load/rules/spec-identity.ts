// The spec the load rules are built from, which every load result records: the parts of one
// distributed run must have judged responses by the same spec. The bundle carries it as data
// (load/scripts/generate-response-rules.ts), so k6 reads no spec at run time.
import { specSha256, specVersion } from '../../spec/index.ts';

export const specIdentity: { version: string; sha256: string } = { version: specVersion, sha256: specSha256 };
