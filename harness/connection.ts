// How the kit's requests reach a deployed server: through a proxy (--proxy, or HTTPS_PROXY,
// HTTP_PROXY and NO_PROXY as curl reads them: undici's default dispatcher reads none of them),
// trusting a private CA (--ca-cert, beside Node's NODE_EXTRA_CA_CERTS) or no certificate at all
// (--insecure). Without any of these, requests go out as Node sends them.
import { rootCertificates } from 'node:tls';
import { Agent, EnvHttpProxyAgent, ProxyAgent, type Dispatcher } from 'undici';

export interface ConnectionOptions {
  /** A proxy for every request, over the environment's. */
  proxy?: string;
  /** PEM text of CA certificates to trust beside Node's own. */
  caCert?: string;
  /** Accept any certificate of the server (a self-signed staging server). */
  insecure?: boolean;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (either letter case). */
  env?: NodeJS.ProcessEnv;
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/** Whether the environment names a proxy. */
const environmentProxy = (env: NodeJS.ProcessEnv) => PROXY_VARIABLES.some((name) => Boolean(env[name]?.trim()));

/** The dispatcher for these options, or undefined when requests go out as Node sends them; close it when the run ends. */
export function connectionDispatcher(options: ConnectionOptions): Dispatcher | undefined {
  // Node's own CA list stays trusted: a given CA is added to it, as NODE_EXTRA_CA_CERTS does (`ca` alone would replace it).
  const tls = {
    ...(options.caCert !== undefined ? { ca: [...rootCertificates, options.caCert] } : {}),
    ...(options.insecure ? { rejectUnauthorized: false } : {}),
  };
  const hasTls = Object.keys(tls).length > 0;
  if (options.proxy) return new ProxyAgent({ uri: options.proxy, ...(hasTls ? { requestTls: tls } : {}) });
  const env = options.env ?? process.env;
  if (environmentProxy(env)) {
    const first = (...names: string[]) => names.map((name) => env[name]?.trim()).find(Boolean);
    const httpProxy = first('HTTP_PROXY', 'http_proxy');
    const httpsProxy = first('HTTPS_PROXY', 'https_proxy') ?? httpProxy;
    const noProxy = first('NO_PROXY', 'no_proxy');
    return new EnvHttpProxyAgent({
      ...(httpProxy ? { httpProxy } : {}),
      ...(httpsProxy ? { httpsProxy } : {}),
      ...(noProxy ? { noProxy } : {}),
      ...(hasTls ? { connect: tls, requestTls: tls } : {}),
    });
  }
  return hasTls ? new Agent({ connect: tls }) : undefined;
}
