// Isolation between projects (seed 2.5, 3 rule 1, 5.6): an asset is usable only by the project
// that uploaded it. Any other project reading, deleting or referencing it gets 403
// ASSET_FORBIDDEN, and its attempts leave the owner's asset as it was. Checked both ways, and
// each refusal is the owner's passing request with one thing changed, the project's key: the
// owner's request succeeds (before, or after for a delete), so the 403 can only come from the key.
import { assetDifferences, decideReferencing, uploadSample } from '../harness/assets-support.ts';
import { area, type Check, type CheckRequirements } from '../harness/check.ts';
import { expectError, expectSuccess } from '../harness/expect.ts';

const TWO_PROJECTS: CheckRequirements = { secondKey: true, capabilities: ['assets'] };
/** Referencing an asset from a decision needs list contexts with media parts as well. */
const TWO_PROJECTS_IN_DECISIONS: CheckRequirements = { secondKey: true, capabilities: ['assets', 'multimodal'] };

const byOwner = (what: string) => `for the owner's ${what} (the request the other project's is derived from)`;

export const isolationChecks: Check[] = area('isolation', [
  {
    id: 'ISOLATION-GET-FORBIDDEN',
    level: 'MUST',
    seedSections: ['2.5', '3', '5'],
    title: "Project B reading project A's asset gets 403 ASSET_FORBIDDEN",
    requires: TWO_PROJECTS,
    async run(t) {
      const { asset } = await uploadSample(t.a, 'image/png');
      expectSuccess(await t.a.getAsset(asset.id), byOwner(`GET /v1/assets/${asset.id}`));
      expectError(await t.b.getAsset(asset.id), 403, 'ASSET_FORBIDDEN', 'getAsset');
    },
  },
  {
    id: 'ISOLATION-DELETE-FORBIDDEN',
    level: 'MUST',
    seedSections: ['2.5', '3', '5'],
    title: "Project B deleting project A's asset gets 403 ASSET_FORBIDDEN",
    requires: TWO_PROJECTS,
    async run(t) {
      const { asset } = await uploadSample(t.a, 'image/png');
      const refused = await t.b.deleteAsset(asset.id);
      // A delete uses the asset up, so the owner's goes second.
      expectSuccess(await t.a.deleteAsset(asset.id), byOwner(`DELETE /v1/assets/${asset.id}, sent after project B's`));
      expectError(refused, 403, 'ASSET_FORBIDDEN', 'deleteAsset');
    },
  },
  {
    id: 'ISOLATION-REFERENCE-FORBIDDEN',
    level: 'MUST',
    seedSections: ['2.2', '2.5', '3', '5'],
    title: "A decision of project B referencing project A's asset gets 403 ASSET_FORBIDDEN",
    requires: TWO_PROJECTS_IN_DECISIONS,
    async run(t) {
      const { asset } = await uploadSample(t.a, 'image/png');
      expectSuccess(await decideReferencing(t.a, asset.id, 'image'), byOwner(`decision referencing ${asset.id}`));
      expectError(await decideReferencing(t.b, asset.id, 'image'), 403, 'ASSET_FORBIDDEN', 'decide');
    },
  },
  {
    id: 'ISOLATION-OWNER-UNAFFECTED',
    level: 'MUST',
    seedSections: ['2.5', '3', '5'],
    title: "After project B tried to read, reference and delete it, project A's asset is unchanged and usable",
    requires: TWO_PROJECTS_IN_DECISIONS,
    async run(t) {
      const { asset } = await uploadSample(t.a, 'image/png');
      // Project B's attempts are judged by the checks above; here only their effect counts.
      await t.b.getAsset(asset.id);
      await decideReferencing(t.b, asset.id, 'image');
      await t.b.deleteAsset(asset.id);
      const read = await t.a.getAsset(asset.id);
      expectSuccess(read, `for the owner's GET /v1/assets/${asset.id} after another project's attempts`);
      const differences = assetDifferences(asset, read.json);
      if (differences.length > 0) t.fail('the Asset as uploaded', differences.join('; '));
      expectSuccess(await decideReferencing(t.a, asset.id, 'image'), "for the owner's decision referencing its asset after another project's attempts");
    },
  },
  {
    id: 'ISOLATION-REVERSE-GET-DELETE-FORBIDDEN',
    level: 'MUST',
    seedSections: ['2.5', '3', '5'],
    title: "Project A reading or deleting project B's asset gets 403 ASSET_FORBIDDEN",
    requires: TWO_PROJECTS,
    async run(t) {
      const { asset } = await uploadSample(t.b, 'image/png');
      expectSuccess(await t.b.getAsset(asset.id), byOwner(`GET /v1/assets/${asset.id}`));
      expectError(await t.a.getAsset(asset.id), 403, 'ASSET_FORBIDDEN', 'getAsset');
      const refused = await t.a.deleteAsset(asset.id);
      expectSuccess(await t.b.deleteAsset(asset.id), byOwner(`DELETE /v1/assets/${asset.id}, sent after project A's`));
      expectError(refused, 403, 'ASSET_FORBIDDEN', 'deleteAsset');
    },
  },
  {
    id: 'ISOLATION-REVERSE-REFERENCE-FORBIDDEN',
    level: 'MUST',
    seedSections: ['2.2', '2.5', '3', '5'],
    title: "A decision of project A referencing project B's asset gets 403 ASSET_FORBIDDEN",
    requires: TWO_PROJECTS_IN_DECISIONS,
    async run(t) {
      const { asset } = await uploadSample(t.b, 'image/png');
      expectSuccess(await decideReferencing(t.b, asset.id, 'image'), byOwner(`decision referencing ${asset.id}`));
      expectError(await decideReferencing(t.a, asset.id, 'image'), 403, 'ASSET_FORBIDDEN', 'decide');
    },
  },
]);
