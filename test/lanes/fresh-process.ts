// Setup file of the unit lane, whose files share one module graph per worker (vitest's
// `isolate: false`): June's sources are imported once per worker rather than once per file.
// What a file changes in the process for its tests is put back after it, so that the next file
// finds the process as a new one would be:
// - timers, mocks, stubbed globals and environment variables (vitest's own `vi` helpers);
// - environment variables set directly, and the working directory;
// - OpenTelemetry's global tracer provider, context manager, propagator and logger;
// - the process's configured secrets (`configuredSecrets`: what MCP servers' URLs and headers,
//   `<Bash>` environments and provider keys register). Left in place, they make every later
//   run redact, and a redacting run passes streamed text on only up to its last space: a test
//   waiting for a first text delta with no space in it waits forever.
// For that last reason, the provider key variables of the environment the tests are started
// from (`OPENAI_API_KEY`, ...: a run registers them as secrets) are removed here first.
import { context, diag, propagation, trace } from '@opentelemetry/api';
import { afterAll, vi } from 'vitest';
import { configuredSecrets } from '../../src/redaction/configured-secrets.js';
import { KNOWN_KEY_VARIABLES, KNOWN_URL_VARIABLES } from '../../src/redaction/known-credentials.js';

for (const name of [...KNOWN_KEY_VARIABLES, ...KNOWN_URL_VARIABLES]) delete process.env[name];
configuredSecrets.clear();

const env = { ...process.env };
const cwd = process.cwd();

afterAll(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  Object.assign(process.env, env);
  if (process.cwd() !== cwd) process.chdir(cwd);
  trace.disable();
  context.disable();
  propagation.disable();
  diag.disable();
  configuredSecrets.clear();
});
