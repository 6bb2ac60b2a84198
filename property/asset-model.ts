// The asset lifecycle as a model-based property (seed 2.5, 3, 4.5 to 4.7, 5): random sequences
// of uploads, reads, deletions, references from decisions, unknown ids and expiry waits, by two
// projects (and a short-lived one), run against the server with fast-check's fc.commands and
// fc.asyncModelRun. The model (asset-model/model.ts) predicts each answer; the commands
// (asset-model/commands.ts) assert only what the seed states. A failure is shrunk to the
// shortest sequence that still fails, reported with its seed and path, and its failing request
// is sent once more at the end so that it is the check's last exchange, with a curl line.
import fc from 'fast-check';
import { area, CheckFailure, type Check } from '../harness/check.ts';
import type { CheckContext } from '../harness/context.ts';
import { TransportError } from '../harness/http.ts';
import { acceptedMimeTypes } from '../harness/samples/media.ts';
import { commandArbitraries, MAX_EXPIRY_WAIT_MS, type CommandSet } from './asset-model/commands.ts';
import { CLOCK_TOLERANCE_MS, emptyModel, type Project } from './asset-model/model.ts';
import { curlOf, newExploration, newRealSystem, type ProjectClients, type SentCall } from './asset-model/system.ts';

/** Command sequences per run when --num-runs is not given: about 5 s of requests against the reference server. */
export const DEFAULT_SEQUENCES = 100;
/** The longest sequence generated (fast-check draws lengths up to it, mostly short ones). */
export const MAX_COMMANDS = 24;
/**
 * Expiry waits are real sleeps: before a failure is seen, only as many sequences wait as fit in
 * this time (three with the reference server's 3 s lifetime), scaled with --num-runs against
 * DEFAULT_SEQUENCES, up to half the time limit. Shrinking a failure may always wait.
 */
export const EXPIRY_WAIT_BUDGET_MS = 12_000;
/** Exploration and shrinking together stop after this long (fast-check's interruptAfterTimeLimit). */
export const TIME_LIMIT_MS = 120_000;

/** A sequence that failed: the command's failure, the commands that ran up to it, and its request. */
class SequenceFailure extends Error {
  constructor(readonly failure: unknown, readonly ran: string[], readonly lastCall: SentCall | undefined) {
    super(failure instanceof Error ? failure.message : String(failure));
    this.name = 'SequenceFailure';
  }
}

/** How many sequences may wait for expiry, or why none can. */
function expiryPlan(t: CheckContext, numRuns: number): { waitingSequences: number } | { reason: string } {
  if (!t.expiring) return { reason: 'the target has no short-lived project (--expiry-api-key, --expiry-ttl-seconds)' };
  const waitMs = t.expiring.ttlMs + CLOCK_TOLERANCE_MS;
  if (waitMs > MAX_EXPIRY_WAIT_MS) {
    return { reason: `the short-lived project's assets live ${t.expiring.ttlMs / 1000} s, over the ${(MAX_EXPIRY_WAIT_MS - CLOCK_TOLERANCE_MS) / 1000} s one wait may take` };
  }
  const budgetMs = Math.min((EXPIRY_WAIT_BUDGET_MS * numRuns) / DEFAULT_SEQUENCES, TIME_LIMIT_MS / 2);
  return { waitingSequences: Math.max(1, Math.floor(budgetMs / waitMs)) };
}

async function assetLifecycle(t: CheckContext): Promise<void> {
  const references = t.target.capabilities.has('multimodal');
  if (!references) t.note('ReferenceInDecide commands left out: the target does not claim the capability multimodal (--capabilities), so decisions cannot reference assets.');
  const numRuns = t.numRuns ?? DEFAULT_SEQUENCES;
  const plan = expiryPlan(t, numRuns);
  const expiry = 'waitingSequences' in plan;
  if (!expiry) t.note(`Expiry commands (uploads by the short-lived project S, WaitForExpiry) left out: ${plan.reason}; expiry is not checked by this run.`);

  const projects: Project[] = expiry ? ['A', 'B', 'S'] : ['A', 'B'];
  const clients: ProjectClients = { A: t.a, B: t.b, ...(expiry ? { S: t.expiring!.client } : {}) };
  const set: CommandSet = { projects, references, expiry, mimeTypes: acceptedMimeTypes };
  const exploration = newExploration(expiry ? plan.waitingSequences : 0);

  const property = fc.asyncProperty(fc.commands(commandArbitraries(set), { maxCommands: MAX_COMMANDS, size: 'max' }), async (commands) => {
    // After a request without a usable response there is nothing more to learn from this target.
    if (exploration.transportError) return;
    const exploring = !exploration.failureSeen;
    const mayWait = expiry && (!exploring || exploration.waitingSequencesLeft > 0);
    const model = emptyModel(mayWait ? 1 : 0);
    const real = newRealSystem(clients, exploration);
    try {
      await fc.asyncModelRun(() => ({ model, real }), commands);
    } catch (error) {
      if (error instanceof TransportError) {
        exploration.transportError ??= error;
        return;
      }
      exploration.failureSeen = true;
      throw new SequenceFailure(error, real.ran.map(String), real.lastCall);
    } finally {
      if (exploring && mayWait && model.waitsLeft === 0) exploration.waitingSequencesLeft -= 1;
    }
  });

  // No endOnFailure: it would skip shrinking, and the shortest failing sequence is the point.
  const details = await fc.check(property, { seed: t.seed, numRuns, interruptAfterTimeLimit: TIME_LIMIT_MS });
  const stopped = details.interrupted ? ` (stopped at the ${TIME_LIMIT_MS / 1000} s time limit)` : '';
  if (exploration.transportError) {
    // Found while exploring: the check cannot go on. While shrinking: shrinking stopped there.
    if (!details.failed) throw exploration.transportError;
    t.note(`Shrinking stopped at a request without a usable response: ${exploration.transportError.message}.`);
  }

  if (!details.failed) {
    const counts = Object.entries(exploration.commandsRun).map(([name, count]) => `${name} ${count}`).join(', ');
    t.note(`${details.numRuns} command sequences of up to ${MAX_COMMANDS} commands by projects ${projects.join(', ')} (seed ${t.seed})${stopped}: ${counts || 'no command ran'}; ${exploration.waits} expiry waits.`);
    const situations = Object.entries(exploration.situations).sort(([a], [b]) => a.localeCompare(b));
    t.note(`Situations met: ${situations.map(([situation, count]) => `${situation} ${count}`).join('; ') || 'none'}.`);
    return;
  }

  const error = details.errorInstance;
  if (!(error instanceof SequenceFailure)) throw error;
  if (!(error.failure instanceof CheckFailure)) throw error.failure;
  const sequence = error.ran.join('; ');
  const replayPath = /replayPath="([^"]*)"/.exec(String(details.counterexample?.[0]))?.[1];
  t.note(`Shortest failing sequence (${error.ran.length} commands, shrunk ${details.numShrinks} times${stopped}): ${sequence}`);
  t.note(`Replay: fast-check seed ${details.seed}, path "${details.counterexamplePath}"${replayPath !== undefined ? `, fc.commands replayPath "${replayPath}"` : ''}.`);

  let reproduction = 'no request was sent';
  if (error.lastCall) {
    const { project, request } = error.lastCall;
    reproduction = curlOf(t.target.baseUrl, error.lastCall);
    try {
      await clients[project]!.send(request);
      t.note(`The failing request (step ${error.ran.length}, project ${project}), sent once more as this check's last exchange: ${reproduction}`);
    } catch (resendError) {
      t.note(`The failing request (step ${error.ran.length}, project ${project}) got no usable response when sent once more (${(resendError as Error).message}): ${reproduction}`);
    }
  }
  t.fail(
    `${error.failure.expected}, at step ${error.ran.length} of the shortest failing sequence [${sequence}]`,
    `${error.failure.observed} (seed ${details.seed}, path "${details.counterexamplePath}"; reproduce with ${reproduction})`,
  );
}

export const assetModelChecks: Check[] = area('property', [
  {
    id: 'PROP-ASSET-LIFECYCLE',
    level: 'MUST',
    seedSections: ['2.2', '2.5', '3', '4.5', '4.6', '4.7', '5', '7'],
    title: 'Random sequences of uploads, reads, deletions, references, unknown ids and expiry by two projects agree with a model of the asset lifecycle',
    requires: { secondKey: true, capabilities: ['assets'] },
    run: assetLifecycle,
  },
]);
