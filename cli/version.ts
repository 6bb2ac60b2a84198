// What `decision-conformance --version` prints: the kit's package version and the version of the spec it judges by,
// the two a report records (results.json `kit` and `spec`), so a run can be matched to the kit that made it.
import { specSha256, specVersion } from '../spec/index.ts';
import { shortSha } from '../reports/format.ts';
import { kitIdentity } from '../reports/kit-identity.ts';

export function versionText(): string {
  return `${kitIdentity.name} ${kitIdentity.version}\nspec ${specVersion} (sha256 ${shortSha(specSha256)})`;
}
