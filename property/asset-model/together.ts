// Commands run together: a group of the model's own commands whose requests are all sent at
// once, so that they are in flight together at the server, and whose answers reach the model in
// the order fast-check's scheduler (fc.scheduler) chooses. The order is generated, shrunk and
// replayed from the seed like the commands themselves.
//
// Groups run one after another under fc.asyncModelRun, and each releases its own answers with
// scheduler.waitFor. Not fc.scheduledModelRun: it runs every command as a scheduled task and
// releases nothing else until that task ends, so a command that waits for answers the scheduler
// holds never ends.
//
// The model's predictions hold whatever order the server handled them in: every command of a
// group chooses its asset from the model as it stood before the group; uploads add new assets;
// a request that overlaps the owner's deletion of its asset may meet it active or deleted
// (model.ts, phaseDuring); everything else is about independent state.
import fc from 'fast-check';
import { AssetCommand, commandArbitraries, type CommandSet } from './commands.ts';
import type { AssetModel } from './model.ts';
import { memberSystem, type RealSystem } from './system.ts';

/** The most commands of one group, hence the most requests in flight together. */
export const MAX_TOGETHER = 6;

export class Together extends AssetCommand {
  readonly name = 'Together';
  /** The commands that could run when the group started, in the order they were sent. */
  private started: AssetCommand[] = [];
  /** The same commands in the order the scheduler gave them their answers. */
  private answered: AssetCommand[] = [];

  constructor(readonly members: readonly AssetCommand[]) {
    super();
  }

  /** Runs when one of its commands can; the others are left out (from the model alone, so a replay leaves out the same). */
  check(model: Readonly<AssetModel>): boolean {
    return this.members.some((member) => member.check(model));
  }

  protected async act(model: AssetModel, real: RealSystem): Promise<void> {
    const scheduler = real.scheduler;
    if (!scheduler) throw new Error("Together needs a scheduler: give newRealSystem the sequence's fc.scheduler()");
    // Decided before any runs: a command's check must not see what another of the group did.
    this.started = this.members.filter((member) => member.check(model));
    const views = this.started.map((member) => memberSystem(real, scheduler, () => member.toString()));
    const failures: Array<{ error: unknown; index: number }> = [];
    // Each command sends its request synchronously as it starts: all are scheduled before the first answer is released.
    const runs = this.started.map((member, index) =>
      member.run(model, views[index]!).then(
        () => void this.answered.push(member),
        (error: unknown) => {
          this.answered.push(member);
          failures.push({ error, index });
        },
      ),
    );
    await scheduler.waitFor(Promise.all(runs));
    const first = failures[0];
    if (!first) return;
    real.lastCall = views[first.index]!.lastCall;
    real.sentTogether = views.flatMap((view) => (view.lastCall ? [view.lastCall] : []));
    throw first.error;
  }

  /** "Together(Upload(A, PNG) -> #2, Get(B, #1); answered 2, 1)" once run. */
  toString(): string {
    if (this.started.length === 0) return `Together(${this.members.join(', ')})`;
    const order = this.answered.map((member) => this.started.indexOf(member) + 1);
    return `Together(${this.started.join(', ')}; answered ${order.join(', ')})`;
  }

  protected fresh(): Together {
    return new Together(this.members.map((member) => member[fc.cloneMethod]()));
  }
}

/** Groups of 1 to MAX_TOGETHER of the model's commands (a group of one is a step run alone). */
export function togetherArbitrary(set: CommandSet): fc.Arbitrary<Together> {
  return fc.array(fc.oneof(...commandArbitraries(set)), { minLength: 1, maxLength: MAX_TOGETHER }).map((members) => new Together(members));
}
