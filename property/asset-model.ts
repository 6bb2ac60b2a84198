// The asset lifecycle as a model-based property (seed 2.5, 3, 4.5 to 4.7, 5): random sequences
// of uploads, reads, deletions, references from decisions, unknown ids and expiry waits, by two
// projects (and a short-lived one), run against the server with fast-check's fc.commands and
// fc.asyncModelRun. The model (asset-model/model.ts) predicts each answer; the commands
// (asset-model/commands.ts) assert only what the seed states. A failure is shrunk to the
// shortest sequence that still fails, reported with its seed and path, and its failing request
// is sent once more at the end so that it is the check's last exchange, with a curl line.
//
// The same commands also run together (PROP-ASSET-LIFECYCLE-CONCURRENT, asset-model/together.ts):
// groups of them send their requests at once and fast-check's scheduler (fc.scheduler) chooses
// the order their answers reach the model. A server right one request at a time and wrong under
// overlap (ids raced, a caller's project in shared state, errors beyond a few requests in flight)
// fails there with the shortest sequence of groups and the answer order that show it.
import fc from 'fast-check';
import { area, CheckFailure, type Check } from '../harness/check.ts';
import type { CheckContext } from '../harness/context.ts';
import { TransportError } from '../harness/http.ts';
import { acceptedMimeTypes } from '../harness/samples/media.ts';
import { commandArbitraries, MAX_EXPIRY_WAIT_MS, type CommandSet } from './asset-model/commands.ts';
import { CLOCK_TOLERANCE_MS, emptyModel, type AssetModel, type Project } from './asset-model/model.ts';
import { curlOf, newExploration, newRealSystem, type ProjectClients, type RealSystem, type SentCall } from './asset-model/system.ts';
import { MAX_TOGETHER, togetherArbitrary } from './asset-model/together.ts';

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
/** Sequences of groups run together when --num-runs is not given: 4 to 8 s against the reference server on a busy 2-core machine. */
export const DEFAULT_SEQUENCES_TOGETHER = 100;
/** The longest sequence of groups generated. */
export const MAX_GROUPS = 12;

/** A sequence that failed: the command's failure, the commands that ran up to it, its request and those sent together with it. */
class SequenceFailure extends Error {
  constructor(
    readonly failure: unknown,
    readonly ran: string[],
    readonly lastCall: SentCall | undefined,
    readonly sentTogether: SentCall[] | undefined,
  ) {
    super(failure instanceof Error ? failure.message : String(failure));
    this.name = 'SequenceFailure';
  }
}

/** How many sequences may wait for expiry, or why none can. */
function expiryPlan(t: CheckContext, numRuns: number): { waitingSequences: number } | { reason: string } {
  if (!t.expiring) return { reason: 'the target has no short-lived project (--expiry-api-key, --expiry-ttl-seconds)' };
  const waitMs = t.expiring.ttlMs + CLOCK_TOLERANCE_MS;
  if (waitMs > MAX_EXPIRY_WAIT_MS) {
    return {
      reason: `the short-lived project's assets live ${t.expiring.ttlMs / 1000} s, over the ${(MAX_EXPIRY_WAIT_MS - CLOCK_TOLERANCE_MS) / 1000} s one wait may take`,
    };
  }
  const budgetMs = Math.min((EXPIRY_WAIT_BUDGET_MS * numRuns) / DEFAULT_SEQUENCES, TIME_LIMIT_MS / 2);
  return { waitingSequences: Math.max(1, Math.floor(budgetMs / waitMs)) };
}

/** How the commands of a sequence run: one at a time, or in groups sent together whose answers the scheduler orders (together.ts). */
type Form = 'one at a time' | 'together';

/** One generated sequence: the scheduler that orders answers (together only) and the commands. */
type Sequence = [fc.Scheduler | undefined, Iterable<fc.AsyncCommand<AssetModel, RealSystem>>];

function sequenceArbitrary(form: Form, set: CommandSet): fc.Arbitrary<Sequence> {
  if (form === 'together') return fc.tuple(fc.scheduler(), fc.commands([togetherArbitrary(set)], { maxCommands: MAX_GROUPS, size: 'max' }));
  return fc.tuple(fc.constant(undefined), fc.commands(commandArbitraries(set), { maxCommands: MAX_COMMANDS, size: 'max' }));
}

async function assetLifecycle(t: CheckContext, form: Form): Promise<void> {
  const together = form === 'together';
  const references = t.target.capabilities.has('multimodal');
  if (!references)
    t.note('ReferenceInDecide commands left out: the target does not claim the capability multimodal (--capabilities), so decisions cannot reference assets.');
  const numRuns = t.numRuns ?? (together ? DEFAULT_SEQUENCES_TOGETHER : DEFAULT_SEQUENCES);
  // Run together, an expiry wait would hold every request in flight: expiry stays with the check run one at a time.
  const plan = together ? { reason: 'expiry is checked by PROP-ASSET-LIFECYCLE, one request at a time' } : expiryPlan(t, numRuns);
  const expiry = 'waitingSequences' in plan;
  if (!expiry) t.note(`Expiry commands (uploads by the short-lived project S, WaitForExpiry) left out: ${plan.reason}; expiry is not checked by this run.`);

  const projects: Project[] = expiry ? ['A', 'B', 'S'] : ['A', 'B'];
  const clients: ProjectClients = { A: t.a, B: t.b, ...(expiry ? { S: t.expiring!.client } : {}) };
  const set: CommandSet = { projects, references, expiry, mimeTypes: acceptedMimeTypes };
  const exploration = newExploration(expiry ? plan.waitingSequences : 0);

  const property = fc.asyncProperty(sequenceArbitrary(form, set), async ([scheduler, commands]) => {
    // After a request without a usable response there is nothing more to learn from this target.
    if (exploration.transportError) return;
    const exploring = !exploration.failureSeen;
    const mayWait = expiry && (!exploring || exploration.waitingSequencesLeft > 0);
    const model = emptyModel(mayWait ? 1 : 0);
    const real = newRealSystem(clients, exploration, scheduler);
    try {
      await fc.asyncModelRun(() => ({ model, real }), commands);
    } catch (error) {
      if (error instanceof TransportError) {
        exploration.transportError ??= error;
        return;
      }
      exploration.failureSeen = true;
      throw new SequenceFailure(error, real.ran.map(String), real.lastCall, real.sentTogether);
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
  const overlap = together ? overlapNote(exploration.inFlight.max) : '';

  if (!details.failed) {
    const counts = Object.entries(exploration.commandsRun)
      .map(([name, count]) => `${name} ${count}`)
      .join(', ');
    const sequences = together
      ? `sequences of up to ${MAX_GROUPS} groups of up to ${MAX_TOGETHER} commands run together`
      : `command sequences of up to ${MAX_COMMANDS} commands`;
    t.note(
      `${details.numRuns} ${sequences} by projects ${projects.join(', ')} (seed ${t.seed})${stopped}: ${counts || 'no command ran'}; ${exploration.waits} expiry waits.${overlap}`,
    );
    const situations = Object.entries(exploration.situations).sort(([a], [b]) => a.localeCompare(b));
    t.note(`Situations met: ${situations.map(([situation, count]) => `${situation} ${count}`).join('; ') || 'none'}.`);
    return;
  }

  const error = details.errorInstance;
  if (!(error instanceof SequenceFailure)) throw error;
  if (!(error.failure instanceof CheckFailure)) throw error.failure;
  const sequence = error.ran.join('; ');
  const replayPath = /replayPath="([^"]*)"/.exec(String(details.counterexample?.[0][1]))?.[1];
  t.note(
    `Shortest failing sequence (${error.ran.length} ${together ? 'group' : 'command'}${error.ran.length === 1 ? '' : 's'}, shrunk ${details.numShrinks} times${stopped}): ${sequence}`,
  );
  t.note(
    `Replay: fast-check seed ${details.seed}, path "${details.counterexamplePath}"${replayPath !== undefined ? `, fc.commands replayPath "${replayPath}"` : ''}.`,
  );
  if (together) t.note(overlap.trim());

  const reproduction = await sendAgain(t, clients, error);
  t.fail(
    `${error.failure.expected}, at step ${error.ran.length} of the shortest failing sequence [${sequence}]`,
    `${error.failure.observed} (seed ${details.seed}, path "${details.counterexamplePath}"; reproduce with ${reproduction})`,
  );
}

/** The overlap a run achieved; a server that answers one at a time is not failed for it, but it is said. */
function overlapNote(maxInFlight: number): string {
  if (maxInFlight > 1) return ` At most ${maxInFlight} requests were in flight together (sent and not yet answered, as the kit saw them).`;
  return ' No overlap was achieved: no two requests were in flight together, so this run says nothing about requests that overlap.';
}

/** A curl line run in the background: the `&` goes before its trailing comment, which would swallow it. */
function inBackground(curl: string): string {
  const comment = curl.lastIndexOf('  # body: ');
  return comment < 0 ? `${curl} &` : `${curl.slice(0, comment)} &${curl.slice(comment)}`;
}

/**
 * Sends the failing request once more, so that it is among the check's last exchanges, and
 * returns its curl line. A request that failed among others run together is sent again with
 * them, together, and its reproduction runs their curl lines at once.
 */
async function sendAgain(t: CheckContext, clients: ProjectClients, error: SequenceFailure): Promise<string> {
  if (!error.lastCall) return 'no request was sent';
  const step = `step ${error.ran.length}, project ${error.lastCall.project}`;
  const calls = error.sentTogether && error.sentTogether.length > 1 ? error.sentTogether : [error.lastCall];
  const curls = calls.map((call) => curlOf(t.target.baseUrl, call));
  const reproduction = calls.length > 1 ? `(\n${curls.map(inBackground).join('\n')}\nwait)` : curls[0]!;
  const what = calls.length > 1 ? `The failing request (${step}) and the ${calls.length - 1} sent together with it` : `The failing request (${step})`;
  const sent = await Promise.allSettled(calls.map((call) => clients[call.project]!.send(call.request)));
  const refused = sent.find((outcome) => outcome.status === 'rejected');
  if (refused) t.note(`${what} got no usable response when sent once more (${(refused.reason as Error).message}): ${reproduction}`);
  else t.note(`${what}, sent once more${calls.length > 1 ? ' together' : ''} as this check's last exchange${calls.length > 1 ? 's' : ''}: ${reproduction}`);
  return reproduction;
}

// Both run alone: the groups of the second are sent together (slots shared with other checks would
// split them), and both wait on the server's clock for expiry, judged within a tolerance that other
// checks' load on the server must not eat into.
export const assetModelChecks: Check[] = area('property', [
  {
    id: 'PROP-ASSET-LIFECYCLE',
    level: 'MUST',
    seedSections: ['2.2', '2.5', '3', '4.5', '4.6', '4.7', '5', '7'],
    title: 'Random sequences of uploads, reads, deletions, references, unknown ids and expiry by two projects agree with a model of the asset lifecycle',
    requires: { secondKey: true, capabilities: ['assets'] },
    exclusive: true,
    run: (t) => assetLifecycle(t, 'one at a time'),
  },
  {
    id: 'PROP-ASSET-LIFECYCLE-CONCURRENT',
    level: 'MUST',
    seedSections: ['2.2', '3', '4.5', '4.6', '4.7', '5', '7'],
    title: 'The same commands, in groups sent together whose answers reach the model in a generated order, agree with the model of the asset lifecycle',
    requires: { secondKey: true, capabilities: ['assets'] },
    exclusive: true,
    run: (t) => assetLifecycle(t, 'together'),
  },
]);
