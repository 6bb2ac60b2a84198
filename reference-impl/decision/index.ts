// The scoring engine of the reference server. The HTTP layer (server/) calls createDecisionEngine
// once at start, then decide() per request; it validates requests before they get here.
export { createDecisionEngine } from './engine.ts';
export type { Decision, DecisionEngine } from './engine.ts';
export type { DecisionEngineOptions } from './calibration.ts';
export { UnscorableQuestionError } from './layout.ts';
