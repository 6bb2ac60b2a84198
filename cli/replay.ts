// decision-conformance replay: re-sends the requests of an earlier run and reports every
// exchange whose outcome changed.
import { parseArgs } from 'node:util';
import { brokenRules, formatReplay } from '../replay/format.ts';
import { readRecordedExchanges, UnreadableResults } from '../replay/recorded.ts';
import { replay } from '../replay/replay.ts';
import { terminalText } from '../reports/escape.ts';
import type { CommandIo } from './io.ts';
import { startEmbeddedTarget } from '../api/embedded-target.ts';
import { ConformanceOptionsError, deploymentOf } from '../api/run-options.ts';
import { connectionDispatcher } from '../harness/connection.ts';
import { DEPLOYMENT_FLAGS, deploymentFlagsOf } from './args.ts';

export const REPLAY_USAGE = `Usage: decision-conformance replay --results OLD_RUN/results.json [--base-url URL] [options]

Re-sends the requests of an earlier run and reports every exchange whose outcome changed:
the status, the error code, a top-level response field, or an answer id (or a field of an
answer) that the old response had. New fields are not a change (seed 9.3).

  --results FILE        results.json of the earlier run (required)
  --base-url URL        the server to replay against (default: the bundled reference server)
  --api-key KEY         key of project A (or env DECISION_API_KEY); recorded keys are redacted, never reused
  --api-key-b KEY       key of project B (or env DECISION_API_KEY_B): requests recorded as project B's
                        (in files of earlier versions, which do not say: tried when key A changes the outcome)
  --expiry-api-key KEY  key of a project whose assets expire as the old run's short-lifetime project's did
                        (or env DECISION_EXPIRY_API_KEY); without it, requests recorded with that project's key are skipped
  --timeout-ms N        timeout of every request (default 30000)
  --header 'NAME: V'    a header every request carries, as \`run\` takes it (repeatable)
  --header-secret 'NAME: V'  the same, redacted like a key (or env DECISION_SECRET_HEADERS, one a line)
  --proxy URL           a proxy every request goes through (HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read without it)
  --ca-cert FILE        PEM CA certificates to trust beside Node's own
  --insecure            accept any certificate of the server
  --format text|json    output (default text)

Recorded keys are redacted: each request is sent with the key of the project it names, a key
variant (a near miss, another scheme) rebuilt from that key. Requests sent together are sent
together again, and the short-lifetime project's requests (expiry) wait as long as the old run did.

Requests whose body was recorded as an excerpt or as "<N bytes>", requests that refer to an id made
by such a request, requests sent together with the deletion of the asset they use (a race), and
requests of a project whose key was not given cannot be replayed faithfully: they are skipped,
counted by reason.

Every replayed response is also judged by the kit's response rules (list-checks shows them); a
broken rule is listed with its first exchange.

Exit status: 0 no outcome changed and no MUST response rule broken; 1 an outcome changed or a MUST
response rule was broken; 2 usage error, unreadable results or unreachable server.`;

export async function replayCommand(argv: string[], env: NodeJS.ProcessEnv, io: CommandIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        results: { type: 'string' },
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        'api-key-b': { type: 'string' },
        'expiry-api-key': { type: 'string' },
        'timeout-ms': { type: 'string' },
        ...DEPLOYMENT_FLAGS,
        format: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    io.err(`decision-conformance replay: ${terminalText((error as Error).message)}\nSee "decision-conformance replay --help".\n`);
    return 2;
  }
  if (values.help) {
    io.out(`${REPLAY_USAGE}\n`);
    return 0;
  }
  const usage = (message: string) => {
    io.err(`decision-conformance replay: ${terminalText(message)}\nSee "decision-conformance replay --help".\n`);
    return 2;
  };
  if (!values.results) return usage('--results FILE is required');
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json') return usage(`--format must be text or json; got "${format}"`);
  const timeoutMs = Number(values['timeout-ms'] ?? 30_000);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) return usage(`--timeout-ms must be a positive whole number; got "${values['timeout-ms']}"`);
  const baseUrl = values['base-url']?.replace(/\/+$/, '');
  if (baseUrl !== undefined && !/^https?:\/\/[^/\s]+/.test(baseUrl)) return usage(`--base-url must be an http(s) URL; got "${baseUrl}"`);
  const keyA = values['api-key'] ?? env.DECISION_API_KEY;
  const keyB = values['api-key-b'] ?? env.DECISION_API_KEY_B;
  const keyExpiry = values['expiry-api-key'] ?? env.DECISION_EXPIRY_API_KEY;
  if (baseUrl !== undefined && !keyA) return usage('--base-url needs a key: --api-key KEY or env DECISION_API_KEY');
  let deployment;
  try {
    deployment = deploymentOf(deploymentFlagsOf(values, env), baseUrl);
  } catch (error) {
    if (error instanceof ConformanceOptionsError) return usage(error.message);
    throw error;
  }

  let exchanges;
  try {
    exchanges = readRecordedExchanges(values.results);
  } catch (error) {
    if (!(error instanceof UnreadableResults)) throw error;
    // The message may quote the file, which holds what a server answered.
    io.err(`decision-conformance replay: ${terminalText(error.message)}\n`);
    return 2;
  }

  const embedded = baseUrl === undefined ? await startEmbeddedTarget() : undefined;
  // A deployed server is reached through the proxy and CA given (or the environment's proxy), as `run` reaches it.
  const dispatcher = embedded ? undefined : connectionDispatcher(deployment.connection ?? {});
  try {
    const target = embedded
      ? { baseUrl: embedded.baseUrl, keyA: embedded.keyA, keyB: embedded.keyB, keyExpiry: embedded.keyShortTtl }
      : { baseUrl: baseUrl!, keyA: keyA!, ...(keyB ? { keyB } : {}), ...(keyExpiry ? { keyExpiry } : {}) };
    const report = await replay(exchanges, {
      ...target,
      timeoutMs,
      ...(Object.keys(deployment.headers ?? {}).length > 0 ? { headers: deployment.headers, secrets: deployment.secretHeaderValues ?? [] } : {}),
      ...(dispatcher ? { dispatcher } : {}),
    });
    // Nothing answered at all: the server is unreachable, not changed.
    const unreachable = report.counts.replayed > 0 && report.verdicts.every((v) => v.kind !== 'same' && (v.kind !== 'changed' || v.status === undefined));
    if (unreachable) {
      io.err(
        `decision-conformance replay: ${terminalText(target.baseUrl)} answered none of the ${report.counts.replayed} requests; check that the server is running and the URL is right\n`,
      );
      return 2;
    }
    io.out(`${formatReplay(report, format)}\n`);
    return report.counts.changed > 0 || brokenRules(report).some((rule) => rule.level === 'MUST') ? 1 : 0;
  } finally {
    await dispatcher?.close();
    await embedded?.stop();
  }
}
