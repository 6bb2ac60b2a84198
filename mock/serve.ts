// `npm run mock`: the Prism mock of spec/openapi.yaml in the foreground, until Ctrl-C or Prism exits.
import { parseArgs } from 'node:util';
import { operations, specPath } from '../spec/index.ts';
import { exampleAuthorization } from './example-key.ts';
import { startPrismMock, type PrismMock } from './prism.ts';

const DEFAULT_PORT = 4010;

const usage = `Usage: decision-conformance mock [--port N] [--host H] [--errors] [--dynamic] [--quiet]   (in a clone: npm run mock -- ...)

Serves ${specPath} with the Prism mock server.

  --port N    port to listen on (default: env MOCK_PORT, else ${DEFAULT_PORT})
  --host H    interface to listen on (default 127.0.0.1)
  --errors    answer 500 when a mock response breaks its own schema
  --dynamic   generate bodies from the schemas instead of the named examples
  --quiet     hide Prism's request log
  --help, -h  show this text

Pick a documented response and named example with: Prefer: code=<status>, example=<name>`;

function parsePort(text: string, source: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`${source} must be a port number from 1 to 65535, got "${text}"`);
  return port;
}

/** A curl line for the first keyed GET without path parameters in the spec. */
function exampleCurl(baseUrl: string): string {
  const op =
    operations.find((candidate) => candidate.method === 'get' && candidate.requiresKey && !candidate.path.includes('{')) ??
    operations.find((candidate) => candidate.method === 'get');
  if (!op) return `curl -s ${baseUrl}/`;
  return `curl -s ${baseUrl}${op.path}${op.requiresKey ? ` -H 'Authorization: ${exampleAuthorization()}'` : ''}`;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      errors: { type: 'boolean', default: false },
      dynamic: { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const port =
    values.port !== undefined ? parsePort(values.port, '--port') : process.env.MOCK_PORT ? parsePort(process.env.MOCK_PORT, 'MOCK_PORT') : DEFAULT_PORT;

  // Prism runs in its own process group, so a terminal's Ctrl-C reaches it only through us.
  // Handlers go in before the start, so a signal during it still stops Prism once it is up.
  let stopSignal: NodeJS.Signals | undefined;
  let mock: PrismMock | undefined;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      stopSignal = signal;
      void mock?.stop(signal);
    });
  }
  mock = await startPrismMock({ port, host: values.host, errors: values.errors, dynamic: values.dynamic, quiet: values.quiet });
  if (stopSignal) await mock.stop(stopSignal);
  else {
    console.log(`Prism mock of ${specPath} listening on ${mock.baseUrl}`);
    console.log(`Try: ${exampleCurl(mock.baseUrl)}`);
  }

  const exit = await mock.exited;
  if (stopSignal) return 0;
  console.error(`Prism exited unexpectedly (code ${exit.code}, signal ${exit.signal})`);
  return exit.code || 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
