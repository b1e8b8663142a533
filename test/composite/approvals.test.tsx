import { tool, type LanguageModel } from 'ai';
import {
  Agent,
  RequireApproval,
  run,
  Step,
  Tool,
  type CompositeToolResult,
  type RunEvent,
} from 'june';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  callsAt,
  findNode,
  nextEvent,
  recordEvents,
  recordingModel,
  toolResultsOf,
} from './support.js';

type ApprovalRequestEvent = Extract<RunEvent, { type: 'approval-request' }>;
const isRequest = (event: RunEvent): event is ApprovalRequestEvent =>
  event.type === 'approval-request';

/** A search tool that waits for approval; `ran` records each query it ran. */
function gatedSearch() {
  const ran: string[] = [];
  const search = tool({
    description: 'Search the web',
    inputSchema: z.object({ query: z.string() }),
    needsApproval: true,
    execute: async ({ query }) => {
      ran.push(query);
      return `results for ${query}`;
    },
  });
  return { search, ran };
}

function Report({
  model,
  search,
}: {
  model: LanguageModel;
  search: ReturnType<typeof gatedSearch>['search'];
}) {
  return (
    <Agent model={model}>
      <Tool name="research" input={z.object({ question: z.string() })}>
        {({ question }) => (
          <Agent model={model}>
            <Tool name="search" value={search} />
            <Step id="findings" prompt={`Research: ${question}`} />
          </Agent>
        )}
      </Tool>
      <Step id="report" prompt="Research how Suspense works" />
    </Agent>
  );
}

const reportScript = (finalFindings: string) => ({
  report: [
    { toolCalls: [{ tool: 'research', input: { question: 'Suspense?' } }] },
    { text: 'Reported.' },
  ],
  'research:findings': [
    { toolCalls: [{ tool: 'search', input: { query: 'suspense' } }] },
    { text: finalFindings },
  ],
});

describe('approvals inside a composite tool', () => {
  it('surface on the outer handle with the step path research:findings, and an approval runs the tool', async () => {
    const model = recordingModel(reportScript('Found it.'));
    const { search, ran } = gatedSearch();
    const handle = run(<Report model={model} search={search} />);

    const { request } = await nextEvent(handle, isRequest);
    expect(request).toMatchObject({
      tool: 'search',
      input: { query: 'suspense' },
      step: 'research:findings',
      toolCallId: 'call_research:findings_1_1',
    });
    expect(handle.pendingApprovals).toEqual([request]);
    expect(ran).toEqual([]);
    handle.approve(request.id);

    const result = await handle.result;
    expect(ran).toEqual(['suspense']);
    expect(toolResultsOf(callsAt(model, 'research:findings')[1]!.prompt)[0]!.output).toEqual({
      type: 'text',
      value: 'results for suspense',
    });
    const child = (findNode(result.trace.root, 'tool', 'research').output as CompositeToolResult)
      .trace;
    expect(findNode(child.root, 'tool', 'search').approval).toEqual({
      id: request.id,
      key: request.key,
      status: 'approved',
      // answered through the run's handle, now
      source: 'handle',
      answeredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(result.output).toBe('Reported.');
    expect(handle.pendingApprovals).toEqual([]);
  });

  it('a denial reaches the inner model as denied, with its reason, and the tool does not run', async () => {
    const model = recordingModel(reportScript('Search was denied.'));
    const { search, ran } = gatedSearch();
    const handle = run(<Report model={model} search={search} />);
    const { request } = await nextEvent(handle, isRequest);
    handle.deny(request.id, 'no web access today');

    const result = await handle.result;
    expect(ran).toEqual([]);
    expect(toolResultsOf(callsAt(model, 'research:findings')[1]!.prompt)).toEqual([
      expect.objectContaining({
        toolName: 'search',
        output: {
          type: 'execution-denied',
          reason: 'The tool call was denied, so it did not run. Reason: no web access today',
        },
      }),
    ]);
    const child = (findNode(result.trace.root, 'tool', 'research').output as CompositeToolResult)
      .trace;
    expect(findNode(child.root, 'tool', 'search')).toMatchObject({
      status: 'denied',
      approval: { id: request.id, status: 'denied', reason: 'no web access today' },
    });
    // The composite itself succeeded: the outer model gets the inner answer.
    expect(toolResultsOf(callsAt(model, 'report')[1]!.prompt)[0]!.output).toEqual({
      type: 'text',
      value: 'Search was denied.',
    });
  });

  it("go to the run's onApproval policy too, recorded as automatic in the child trace", async () => {
    const model = recordingModel(reportScript('Found it.'));
    const { search, ran } = gatedSearch();
    const asked: string[] = [];
    const result = await run(<Report model={model} search={search} />, {
      onApproval: (request) => {
        asked.push(`${request.step} ${request.tool}`);
        return true;
      },
    }).result;
    expect(asked).toEqual(['research:findings search']);
    expect(ran).toEqual(['suspense']);
    const child = (findNode(result.trace.root, 'tool', 'research').output as CompositeToolResult)
      .trace;
    expect(findNode(child.root, 'tool', 'search').approval).toMatchObject({
      status: 'approved',
      automatic: true,
    });
  });

  it('name every level of nested composites in the step path: a:b:s', async () => {
    const model = recordingModel({
      top: [{ toolCalls: [{ tool: 'a', input: {} }] }, { text: 'done' }],
      'a:t': [{ toolCalls: [{ tool: 'b', input: {} }] }, { text: 'a done' }],
      'a:b:s': [{ toolCalls: [{ tool: 'search', input: { query: 'deep' } }] }, { text: 'b done' }],
    });
    const { search, ran } = gatedSearch();
    const handle = run(
      <Agent model={model}>
        <Tool name="a" input={z.object({})}>
          {() => (
            <Agent model={model}>
              <Tool name="b" input={z.object({})}>
                {() => (
                  <Agent model={model}>
                    <Tool name="search" value={search} />
                    <Step id="s" prompt="Search deep" />
                  </Agent>
                )}
              </Tool>
              <Step id="t" prompt="Call b" />
            </Agent>
          )}
        </Tool>
        <Step id="top" prompt="Call a" />
      </Agent>,
    );
    const { request } = await nextEvent(handle, isRequest);
    expect(request.step).toBe('a:b:s');
    expect(handle.pendingApprovals.map((r) => r.step)).toEqual(['a:b:s']);
    handle.approve(request.id);
    expect((await handle.result).output).toBe('done');
    expect(ran).toEqual(['deep']);
    model.scripted.assertAllTurnsUsed();
  });

  it('<RequireApproval> around the composite gates entering it: denied, the workflow never runs', async () => {
    const model = recordingModel({
      report: [
        { toolCalls: [{ tool: 'research', input: { question: 'Suspense?' } }] },
        { text: 'Not allowed to research.' },
      ],
    });
    const { search } = gatedSearch();
    const handle = run(
      <Agent model={model}>
        <RequireApproval>
          <Tool name="research" input={z.object({ question: z.string() })}>
            {({ question }) => (
              <Agent model={model}>
                <Tool name="search" value={search} />
                <Step id="findings" prompt={`Research: ${question}`} />
              </Agent>
            )}
          </Tool>
        </RequireApproval>
        <Step id="report" prompt="Research how Suspense works" />
      </Agent>,
    );
    const { events, done } = recordEvents(handle);
    const { request } = await nextEvent(handle, isRequest);
    expect(request).toMatchObject({
      tool: 'research',
      step: 'report',
      input: { question: 'Suspense?' },
    });
    handle.deny(request.id, 'not now');
    expect((await handle.result).output).toBe('Not allowed to research.');
    await done;
    expect(callsAt(model, 'research:findings')).toHaveLength(0);
    expect(events.filter((e) => e.type === 'run-start')).toHaveLength(1);
    expect(toolResultsOf(callsAt(model, 'report')[1]!.prompt)[0]!.output).toEqual({
      type: 'execution-denied',
      reason: 'The tool call was denied, so it did not run. Reason: not now',
    });
  });
});
