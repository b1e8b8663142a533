import { request as httpRequest } from 'node:http';

// What the Studio tests that answer a real `june run` share: a release workflow whose deploy
// tool needs approval and logs each execution, its script, and a same-origin answer POST.

/** A workflow file's text: one deploy call that waits for approval, each run logged to `log`. */
export const deployFlow = (log = 'deploys.log') => `import { appendFileSync } from 'node:fs';
import { tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

const deploy = tool({
  description: 'Deploy',
  inputSchema: z.object({ env: z.string() }),
  needsApproval: true,
  execute: async ({ env }) => {
    appendFileSync('${log}', env + '\\n');
    return 'Deployed to ' + env;
  },
});

export default function Release() {
  return (
    <Agent model={openai('gpt-5-mini')}>
      <Tool name="deploy" value={deploy} />
      <Step id="release" prompt="Deploy to staging" />
    </Agent>
  );
}
`;

/** The script for {@link deployFlow}: deploy to staging, then answer. */
export const deployScript = JSON.stringify({
  $comment: 'Test fixture: test/studio/deploy-run.ts',
  steps: {
    release: [{ toolCalls: [{ tool: 'deploy', input: { env: 'staging' } }] }, { text: 'Done.' }],
  },
});

/** POSTs an approval answer as Studio's own page does: same origin, with the answer token. */
export function postAnswer(
  url: string,
  body: unknown,
  token: string,
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          origin: new URL(url).origin,
          'sec-fetch-site': 'same-origin',
        },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}
