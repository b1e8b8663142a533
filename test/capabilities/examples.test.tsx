// The capability examples the docs point at: they resolve as the docs say, and run offline
// with their scripts.
import { fileURLToPath } from 'node:url';
import { run, type ApprovalRequest } from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';
import FixBug from '../../examples/capabilities/bundles.js';
import Rollout from '../../examples/capabilities/inherit.js';
import PricingPage from '../../examples/capabilities/scope.js';
import Trip from '../../examples/capabilities/tools-prop.js';
import Support from '../../examples/capabilities/wrappers.js';
import { toolsOf } from './support.js';

const script = (name: string) =>
  scriptedModel(
    fileURLToPath(new URL(`../../examples/capabilities/${name}.script.json`, import.meta.url)),
  );

async function runWithApprovals(element: Parameters<typeof run>[0], name: string) {
  const model = script(name);
  const approvals: ApprovalRequest[] = [];
  const result = await run(element, {
    model,
    onApproval: (request) => {
      approvals.push(request);
      return true;
    },
  }).result;
  model.assertAllTurnsUsed();
  return { result, approvals: approvals.map((request) => `${request.step}:${request.tool}`) };
}

describe('examples/capabilities', () => {
  it('scope.tsx: the writer has readNote only; publishing waits for approval', async () => {
    expect(await toolsOf(<PricingPage />)).toEqual([
      { readNote: false, publish: true },
      { readNote: false },
    ]);
    const { result, approvals } = await runWithApprovals(<PricingPage />, 'scope');
    expect(approvals).toEqual(['review:publish']);
    expect(result.steps.review).toBe('Published the pricing page.');
  });

  it('bundles.tsx: the Files bundle adds writeFile only when writable', async () => {
    expect(await toolsOf(<FixBug />)).toEqual([
      { listFiles: false, readFile: false, writeFile: false },
    ]);
    expect(await toolsOf(<FixBug writable={false} />)).toEqual([
      { listFiles: false, readFile: false },
    ]);
    const { result } = await runWithApprovals(<FixBug />, 'bundles');
    expect(result.steps.fix).toBe('Fixed: sum now adds its arguments.');
  });

  it('wrappers.tsx: namespaced tools, and the refund waits despite needsApproval: false', async () => {
    expect(await toolsOf(<Support />)).toEqual([
      { tickets_search: false, tickets_refund: true, kb_search: false },
    ]);
    const { approvals } = await runWithApprovals(<Support />, 'wrappers');
    expect(approvals).toEqual(['support:tickets_refund']);
  });

  it('inherit.tsx: ops_deploy reaches the deployer renamed and waiting; the checker gets ops_status', async () => {
    expect(await toolsOf(<Rollout />)).toEqual([
      { ops_status: false, ops_deploy: true },
      { ops_deploy: true },
      { ops_status: false },
    ]);
    const { result, approvals } = await runWithApprovals(<Rollout />, 'inherit');
    expect(approvals).toEqual(['ship:ops_deploy']);
    expect(result.steps).toEqual({
      ship: 'Build 412 is on staging.',
      check: 'Staging is healthy.',
    });
  });

  it('tools-prop.tsx: the tools prop and <Tool> share one scope', async () => {
    expect(await toolsOf(<Trip />)).toEqual([{ savePackingList: false, forecast: false }]);
    const { result } = await runWithApprovals(<Trip />, 'tools-prop');
    expect(result.steps.pack).toContain('umbrella');
  });
});
