// The catalogue: every check of every area, in run order. No check lives anywhere else.
import { checksById, type Check } from '../harness/check.ts';
import { authChecks } from './auth.ts';
import { requestIdChecks } from './request-ids.ts';
import { decideValidationChecks } from './decide-validation.ts';
import { decideAnswerChecks } from './decide-answers.ts';
import { limitChecks } from './limits.ts';
import { assetChecks } from './assets.ts';
import { isolationChecks } from './isolation.ts';
import { mediaPrivacyChecks } from './media-privacy.ts';
import { errorChecks } from './errors.ts';
import { modelChecks } from './models.ts';
import { feedbackChecks } from './feedback.ts';
import { serviceChecks } from './service.ts';
import { surfaceEdgeChecks } from './surface-edges.ts';
import { concurrencyChecks } from './concurrency.ts';

export const checks: readonly Check[] = [
  ...authChecks,
  ...requestIdChecks,
  ...decideValidationChecks,
  ...decideAnswerChecks,
  ...limitChecks,
  ...assetChecks,
  ...mediaPrivacyChecks,
  ...isolationChecks,
  ...errorChecks,
  ...modelChecks,
  ...feedbackChecks,
  ...serviceChecks,
  ...surfaceEdgeChecks,
  ...concurrencyChecks,
];

const byId = checksById(checks, 'conformance');

export function checkById(id: string): Check {
  const check = byId.get(id);
  if (!check) throw new Error(`No check ${id} in the catalogue`);
  return check;
}
