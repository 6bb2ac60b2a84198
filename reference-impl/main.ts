// The reference server in the foreground, as `npm run serve` starts it: configuration from the
// command line and environment, access logs to stdout, a graceful shutdown on SIGINT/SIGTERM.
// serve.ts runs it under tsx; reference-impl/start.mjs runs it from a bundle.
import { DEV_EXPIRY_TTL_SECONDS, DEV_PROJECTS, USAGE, configFrom } from './server/config.ts';
import { createReferenceServer } from './server/app.ts';
import { writeBuffer } from './server/write-buffer.ts';

export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const accessLog = writeBuffer((text) => process.stdout.write(text));
  // Whatever way the process ends, the lines still waiting are written first.
  process.on('exit', () => accessLog.flush());

  let config;
  try {
    config = configFrom(argv, env);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (config === 'help') {
    console.log(USAGE);
    process.exit(0);
  }

  const { app } = await createReferenceServer({
    dataDir: config.dataDir,
    projects: config.projects,
    assetTtlMs: config.assetTtlMs,
    rateLimit: config.rateLimit,
    profile: config.profile,
    choices: config.choices,
    ...(config.abstainMargin !== undefined ? { abstainMargin: config.abstainMargin } : {}),
    // Access logs leave the request's critical path: the lines of a few milliseconds go to stdout
    // in one write (write-buffer.ts; pino's default is one synchronous write per line).
    logger: { level: config.logLevel, redact: ['req.headers.authorization'], stream: { write: (line: string) => accessLog.add(line) } },
  });
  const address = await app.listen({ port: config.port, host: config.host });
  const baseUrl = address.replace('0.0.0.0', '127.0.0.1');

  console.log(`Decision Service reference server listening on ${baseUrl}`);
  console.log(`Data directory: ${config.dataDir}`);
  console.log(
    `Open-point profile: ${config.profile}${Object.entries(config.choices)
      .map(([id, choice]) => `, ${id}=${choice}`)
      .join('')}`,
  );
  if (config.projects === DEV_PROJECTS) {
    for (const project of DEV_PROJECTS) {
      const lifetime = project.assetTtlMs ? ` (its assets expire ${DEV_EXPIRY_TTL_SECONDS} s after upload)` : '';
      console.log(`Development key of ${project.projectId}${lifetime}: ${project.keys[0]}`);
    }
    const [keyA, keyB, expiryKey] = DEV_PROJECTS.map((project) => project.keys[0]);
    console.log(
      `Conformance run against it: npx decision-conformance run --base-url ${baseUrl} --api-key ${keyA} --api-key-b ${keyB} --expiry-api-key ${expiryKey} --expiry-ttl-seconds ${DEV_EXPIRY_TTL_SECONDS}`,
    );
    console.log(`Try: curl -s ${baseUrl}/v1/decide -H "Authorization: Bearer ${DEV_PROJECTS[0]!.keys[0]}" -H "Content-Type: application/json" \\
    -d '{"context":"I was charged twice and want a refund.","questions":{"topic":{"type":"choice","options":{"billing":"Payments and refunds","shipping":"Delivery"}}}}'`);
  }

  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      // Stops accepting connections and waits for in-flight requests before exiting.
      app.close().then(
        () => process.exit(0),
        (error: Error) => {
          console.error(`Shutdown failed: ${error.message}`);
          process.exit(1);
        },
      );
    });
  }
}
