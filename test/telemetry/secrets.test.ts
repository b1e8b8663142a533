import { afterEach, beforeEach, expect, test } from 'vitest';
import { june, tempProject } from '../cli/cli-harness.js';
import { otlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.js';

const secrets = {
  prop: 'prop-secret-5555aa',
  bashEnv: 'bash-env-secret-9876bb',
  header: 'header-secret-4242cc',
  openaiKey: 'sk-openai-secret-000dd',
  processEnv: 'process-env-secret-777ee',
  otlpHeader: 'otlp-header-secret-111ff',
  cwd: 'work-secret-dir-31415',
};

// A deploy whose model echoes the secret prop, runs a command that prints a secret from its
// <Bash env>, with model headers holding a key and an OpenAI key in the environment.
const workflow = (cwd: string) => `
import { Agent, Step } from 'june';
import { openai } from 'june/sdk/openai';
import { Bash } from 'june/tools';

export default function Deploy({ token }: { token: string }) {
  return (
    <Agent model={openai('gpt-5-mini')} headers={{ 'x-api-key': '${secrets.header}' }}>
      <Bash env={{ DEPLOY_TOKEN: '${secrets.bashEnv}' }} cwd={${JSON.stringify(cwd)}} needsApproval={false} />
      <Step id="deploy" prompt={\`Deploy using the token \${token}\`} />
    </Agent>
  );
}
`;

const script = {
  $comment: 'Test fixture: a deploy that echoes its secrets (test/telemetry/secrets.test.ts)',
  steps: {
    deploy: [
      {
        text: `Deploying with ${secrets.prop}.`,
        toolCalls: [
          {
            tool: 'bash',
            input: { command: `echo "token=$DEPLOY_TOKEN prop=${secrets.prop}"` },
          },
        ],
      },
      { text: `Deployed; the token was ${secrets.prop}.` },
    ],
  },
};

let receiver: OtlpReceiver;
let project: ReturnType<typeof tempProject>;
beforeEach(async () => {
  receiver = await otlpReceiver();
  project = tempProject();
});
afterEach(async () => {
  project.remove();
  await receiver.close();
});

test('a run seeded with secrets exports none of them, even recording inputs and outputs', async () => {
  const cwd = project.folder(secrets.cwd);
  const file = project.write('deploy.tsx', workflow(cwd));
  const scriptFile = project.write('deploy.script.json', JSON.stringify(script));
  const result = await june(
    [
      'run',
      file,
      '--script',
      scriptFile,
      '--secret-props',
      JSON.stringify({ token: secrets.prop }),
      '--otel',
      '--otel-record-inputs',
      '--otel-record-outputs',
    ],
    project.dir,
    {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${secrets.otlpHeader}`,
      OPENAI_API_KEY: secrets.openaiKey,
      DEPLOY_SECRET: secrets.processEnv,
    },
  );
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);

  // what was recorded: the content, redacted
  const step = receiver.spans.find((span) => span.name === 'step deploy')!;
  expect(step.attributes['june.step.prompt']).toBe('Deploy using the token [redacted]');
  expect(step.attributes['june.step.result']).toBe('Deployed; the token was [redacted].');
  const bash = receiver.spans.find((span) => span.name === 'execute_tool bash')!;
  expect(bash.attributes['june.tool.source']).toBe('<Bash>');
  expect(bash.attributes['gen_ai.tool.call.result']).toContain('token=[redacted] prop=[redacted]');

  // what was sent: none of the secrets, anywhere in a request body
  const bodies = receiver.requests.map((request) => request.body).join('\n');
  expect(bodies.length).toBeGreaterThan(0);
  for (const [name, secret] of Object.entries(secrets))
    expect(bodies, `the ${name} secret`).not.toContain(secret);
  // the collector's own header went where it belongs: on the request, not in the spans
  expect(receiver.requests[0]!.headers.authorization).toBe(`Bearer ${secrets.otlpHeader}`);
});
