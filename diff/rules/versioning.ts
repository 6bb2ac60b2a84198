// Seed 9: the version of the description. A new major version (/v1 -> /v2 with info.version)
// may break clients; anything else that moves only one of the two is worth a look.
import type { DocumentStage, Run, RuleFamily } from '../family.ts';
import { rule } from '../findings.ts';
import type { DocumentPair, Finding } from '../model.ts';

const VERSION_RULES = {
  majorChanged: rule(
    'major-version-changed',
    'document',
    'info',
    'the major version moved in both info.version and the /vN paths: breaking findings are reported as info (seed 9.2)',
  ),
  majorHalfChanged: rule(
    'major-version-inconsistent',
    'document',
    'info',
    'info.version and the /vN paths disagree on the new major version, so breaking findings stay breaking',
  ),
  versionChanged: rule('info-version-changed', 'document', 'info', 'info.version changed within the same major version'),
};

function compareVersions({ pair, majors, collector }: DocumentStage): void {
  const version = (doc: DocumentPair['old']) => String((doc.info as { version?: unknown } | undefined)?.version ?? '');
  const oldVersion = version(pair.old);
  const newVersion = version(pair.new);
  const paths = (list: number[]) => (list.length > 0 ? list.map((n) => `/v${n}`).join(', ') : 'none');
  if (majors.changed) {
    collector.report(VERSION_RULES.majorChanged, {
      oldPointer: '/info/version',
      newPointer: '/info/version',
      message: `Major version ${majors.oldMajor} became ${majors.newMajor} (${oldVersion} to ${newVersion}; paths ${paths(majors.oldPathMajors)} to ${paths(majors.newPathMajors)}): changes that break clients are allowed under a new major version (seed 9.2).`,
    });
  } else if (majors.oldMajor !== majors.newMajor || paths(majors.oldPathMajors) !== paths(majors.newPathMajors)) {
    collector.report(VERSION_RULES.majorHalfChanged, {
      oldPointer: '/info/version',
      newPointer: '/info/version',
      message: `info.version went from ${oldVersion} to ${newVersion} and the versioned paths from ${paths(majors.oldPathMajors)} to ${paths(majors.newPathMajors)}; a new major version needs both, so breaking changes stay breaking.`,
    });
  } else if (oldVersion !== newVersion) {
    collector.report(VERSION_RULES.versionChanged, {
      oldPointer: '/info/version',
      newPointer: '/info/version',
      message: `info.version went from ${oldVersion} to ${newVersion} within major version ${majors.newMajor ?? '?'}.`,
    });
  }
}

/** Under a new major version every breaking finding stays listed, as info (seed 9.2). */
function downgradeUnderNewMajor({ majors }: Run, findings: Finding[]): void {
  if (!majors.changed) return;
  for (const finding of findings.filter((f) => f.class === 'breaking')) {
    finding.downgradedFrom = 'breaking';
    finding.class = 'info';
  }
}

export const versioningFamily: RuleFamily = {
  name: 'versioning',
  stage: 'document',
  rules: Object.values(VERSION_RULES),
  compare: compareVersions,
  amend: downgradeUnderNewMajor,
};
