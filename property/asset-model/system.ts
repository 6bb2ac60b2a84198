// The real side of the model run: one API client per project, each remembering the request it
// sent last (so that a failing command can be reproduced with curl), and what the whole check
// shares across sequences (the expiry-wait budget, counts for the report, a transport failure).
// A 429 never reaches the model: the HTTP layer sends such a request again after Retry-After.
// Commands run together (together.ts) each get a view of the system whose answers the
// scheduler hands back in the order it chooses, while the requests are all in flight at once.
import type fc from 'fast-check';
import { apiClient, type ApiClient } from '../../harness/context.ts';
import { curlFor, KEY_VARIABLES, wireRequest, type SentRequest, type TransportError } from '../../harness/http.ts';
import type { Project } from './model.ts';

export type ProjectClients = { [P in Project]?: ApiClient };

/** One request as a command sent it, without the key (the project says which key). */
export interface SentCall {
  project: Project;
  request: Omit<SentRequest, 'key'>;
}

/** What every sequence of one check shares. */
export interface Exploration {
  /** Sequences that may still sleep for expiry before a failure is seen (after one, shrinking may always wait). */
  waitingSequencesLeft: number;
  failureSeen: boolean;
  /** A request that got no usable response: the check stops and reports it as such. */
  transportError?: TransportError;
  /** Commands run, by name, and expiry waits made: evidence for the report. */
  commandsRun: Record<string, number>;
  /** Commands by the owner or another project, of an active, deleted, expired or expiring asset. */
  situations: Record<string, number>;
  waits: number;
  /** Requests sent and not yet answered, now and at most at once: the overlap achieved, as the kit saw it. */
  inFlight: { now: number; max: number };
}

export function newExploration(waitingSequences: number): Exploration {
  return { waitingSequencesLeft: waitingSequences, failureSeen: false, commandsRun: {}, situations: {}, waits: 0, inFlight: { now: 0, max: 0 } };
}

/** The system under test for one sequence. */
export interface RealSystem {
  clients: ProjectClients;
  /** The request the last command sent: when a command fails, the one it failed on. */
  lastCall?: SentCall;
  /** When a command run together with others fails: the requests of all of them, sent together. */
  sentTogether?: SentCall[];
  /** Orders the answers of commands run together (absent when commands run one at a time). */
  scheduler?: fc.Scheduler;
  /** Labels of the commands of this sequence that ran, in order, filled in as they run. */
  ran: Array<{ toString(): string }>;
  exploration: Exploration;
}

/** Clients that send through `clients`, remember each request in `system.lastCall` and count the requests in flight. */
export function newRealSystem(clients: ProjectClients, exploration: Exploration, scheduler?: fc.Scheduler): RealSystem {
  const system: RealSystem = { clients: {}, ran: [], exploration, ...(scheduler ? { scheduler } : {}) };
  const { inFlight } = exploration;
  for (const [project, client] of Object.entries(clients) as Array<[Project, ApiClient]>) {
    // apiClient builds each request exactly as the suites do; the key is added by `client`.
    system.clients[project] = apiClient(async (sent) => {
      system.lastCall = { project, request: sent };
      inFlight.now += 1;
      inFlight.max = Math.max(inFlight.max, inFlight.now);
      try {
        return await client.send(sent);
      } finally {
        inFlight.now -= 1;
      }
    }, null);
  }
  return system;
}

/**
 * The system as one command of a group run together sees it: its request goes out at once
 * through `real`'s clients, and its answer reaches the command when the scheduler releases it
 * (labelled with the command). It remembers its own last request; commands it runs are not
 * listed in `real.ran` (the group is).
 */
export function memberSystem(real: RealSystem, scheduler: fc.Scheduler, label: () => string): RealSystem {
  const member: RealSystem = { clients: {}, ran: [], exploration: real.exploration, scheduler };
  for (const [project, client] of Object.entries(real.clients) as Array<[Project, ApiClient]>) {
    member.clients[project] = apiClient((sent) => {
      member.lastCall = { project, request: sent };
      return scheduler.schedule(client.send(sent), label());
    }, null);
  }
  return member;
}

export function clientOf(system: RealSystem, project: Project): ApiClient {
  const client = system.clients[project];
  if (!client) throw new Error(`No client for project ${project}: the command should not have been generated`);
  return client;
}

/** The environment variable that holds each project's key (see the command line's --help). */
const KEY_VARIABLE_OF: Record<Project, string> = { A: KEY_VARIABLES.a, B: KEY_VARIABLES.b, S: KEY_VARIABLES.expiry };

/** A curl line that sends `call` again; the key is the project's environment variable, never in clear. */
export function curlOf(baseUrl: string, call: SentCall): string {
  const { headers, body } = wireRequest({ ...call.request, key: 'KEY' });
  return curlFor(call.request.method, `${baseUrl}${call.request.path}`, headers, body, { keyVariable: KEY_VARIABLE_OF[call.project] });
}
