// `june run --script` gives a script's approval answers (a tool call's `answer`) as a
// person's, through the source `script`: offline, without a terminal, a script can edit a
// call or answer instead of the tool.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { june, nodesOf, onlyTrace, repoRoot, tempProject } from './cli-harness.js';

const example = join(repoRoot, 'examples', 'release.tsx');

const script = {
  steps: {
    release: [
      {
        toolCalls: [
          {
            id: 'c_prod',
            tool: 'deploy',
            input: { env: 'prod' },
            answer: { approved: true, input: { env: 'staging' }, answeredBy: 'ana' },
          },
        ],
      },
      {
        toolCalls: [
          {
            id: 'c_again',
            tool: 'deploy',
            input: { env: 'prod' },
            answer: { approved: false, output: 'prod was deployed by hand' },
          },
        ],
      },
      { text: 'Staging is deployed; prod was deployed by hand.' },
    ],
  },
};

describe('june run --script: answers of the script', () => {
  let project: ReturnType<typeof tempProject>;
  beforeEach(() => {
    project = tempProject();
  });
  afterEach(() => project.remove());

  it('edits one call and answers instead of the tool for another, with no terminal', async () => {
    project.write('edits.json', JSON.stringify(script));
    const { code, stdout, stderr } = await june(
      ['run', example, '--script', join(project.dir, 'edits.json')],
      project.dir,
    );

    expect(stderr).toBe('');
    expect(code).toBe(0);
    // the progress says what each answer was, as the trace does
    expect(stdout).toContain('✓ approved deploy with an edited input: {"env":"staging"}');
    expect(stdout).toContain('✓ answered instead of deploy: "prod was deployed by hand"');
    const deploys = nodesOf(onlyTrace(project.dir)).filter(
      (node) => node.kind === 'tool' && node.name === 'deploy',
    );
    expect(deploys.map((node) => [node.input, node.approval?.status, node.output])).toEqual([
      [{ env: 'prod' }, 'approved', 'Deployed to staging'],
      [{ env: 'prod' }, 'responded', 'prod was deployed by hand'],
    ]);
    expect(deploys[0]!.approval).toMatchObject({
      source: 'script',
      answeredBy: 'ana',
      input: { env: 'staging' },
    });
  });
});
