import { readUIMessageStream, tool, type LanguageModel } from 'ai';
import { Agent, run, Step, Tool, memoryJournalStore } from 'june';
import { scriptedModel } from 'june/testing';
import { toUIMessageStream, type JuneUIMessage } from 'june/web';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const script = {
  $comment: 'Test fixture: scripted turns for test/web',
  steps: {
    report: [
      {
        text: 'Let me look.',
        toolCalls: [
          { tool: 'lookup', input: { id: 7 } },
          { tool: 'research', input: { question: 'Suspense?' } },
        ],
      },
      { toolCalls: [{ tool: 'deploy', input: { env: 'prod' } }] },
      { text: 'Not deployed.' },
    ],
    'research:findings': [
      { toolCalls: [{ tool: 'search', input: { query: 'suspense' } }] },
      { text: 'Found it.' },
    ],
  },
};

function Report({ model, ran }: { model: LanguageModel; ran: string[] }) {
  const lookup = tool({
    inputSchema: z.object({ id: z.number() }),
    execute: async ({ id }) => ({ id, title: 'Suspense' }),
  });
  const search = tool({
    inputSchema: z.object({ query: z.string() }),
    needsApproval: true,
    execute: async ({ query }) => (ran.push(`search ${query}`), `results for ${query}`),
  });
  const deploy = tool({
    inputSchema: z.object({ env: z.string() }),
    needsApproval: true,
    execute: async ({ env }) => (ran.push(`deploy ${env}`), 'deployed'),
  });
  return (
    <Agent model={model}>
      <Tool name="lookup" value={lookup} />
      <Tool name="deploy" value={deploy} />
      <Tool name="research" input={z.object({ question: z.string() })}>
        {({ question }) => (
          <Agent model={model}>
            <Tool name="search" value={search} />
            <Step id="findings" prompt={`Research: ${question}`} />
          </Agent>
        )}
      </Tool>
      <Step id="report" prompt="Report on Suspense" />
    </Agent>
  );
}

async function lastMessage(stream: ReadableStream<never>): Promise<JuneUIMessage> {
  let last: JuneUIMessage | undefined;
  for await (const message of readUIMessageStream<JuneUIMessage>({ stream })) last = message;
  return last!;
}

describe('toUIMessageStream', () => {
  it('gives text, tool parts under June tool names, a composite call with its child run, an approval and a denial', async () => {
    const ran: string[] = [];
    const handle = run(<Report model={scriptedModel(script)} ran={ran} />, {
      journal: memoryJournalStore(),
      onApproval: (request) =>
        request.tool === 'search' ? true : { approved: false, reason: 'not today' },
    });
    const message = await lastMessage(toUIMessageStream(handle) as ReadableStream<never>);
    await handle.result;

    expect(message.metadata).toEqual({ runId: handle.runId, waiting: false });
    const texts = message.parts.flatMap((part) => (part.type === 'text' ? [part] : []));
    expect(texts.map((part) => [part.text, part.providerMetadata?.june?.step])).toEqual([
      ['Let me look.', 'report'],
      ['Found it.', 'research:findings'],
      ['Not deployed.', 'report'],
    ]);

    const tools = Object.fromEntries(
      message.parts.flatMap((part) =>
        part.type.startsWith('tool-') ? [[part.type, part as Record<string, unknown>]] : [],
      ),
    );
    expect(Object.keys(tools).sort()).toEqual([
      'tool-deploy',
      'tool-lookup',
      'tool-research',
      'tool-search',
    ]);
    expect(tools['tool-lookup']).toMatchObject({
      toolCallId: 'report/call_report_1_1',
      state: 'output-available',
      input: { id: 7 },
      output: { id: 7, title: 'Suspense' },
      toolMetadata: { step: 'report' },
    });
    expect(tools['tool-research']).toMatchObject({
      toolCallId: 'report/call_report_1_2',
      state: 'output-available',
      input: { question: 'Suspense?' },
      output: 'Found it.',
    });
    // the approval inside the composite: its id is the call's key, stable across resumes
    expect(tools['tool-search']).toMatchObject({
      toolCallId: 'research:findings/call_research:findings_1_1',
      state: 'output-available',
      input: { query: 'suspense' },
      output: 'results for suspense',
      toolMetadata: { step: 'research:findings' },
      approval: { id: `${handle.runId}/report#0.1/findings#0.0` },
    });
    expect(tools['tool-deploy']).toMatchObject({
      state: 'output-denied',
      input: { env: 'prod' },
      approval: { id: `${handle.runId}/report#1.0` },
    });
    expect(ran).toEqual(['search suspense']);

    const data = message.parts.flatMap((part) =>
      part.type.startsWith('data-june-') ? [[part.type, (part as { data: unknown }).data]] : [],
    );
    expect(data).toEqual([
      [
        'data-june-agent',
        { agent: 'agent', tools: ['lookup', 'deploy', 'research'], status: 'succeeded' },
      ],
      ['data-june-step', { step: 'report', agent: 'agent', status: 'succeeded' }],
      [
        'data-june-run',
        { step: 'report', toolCallId: 'report/call_report_1_2', status: 'succeeded' },
      ],
      ['data-june-agent', { agent: 'agent', in: 'report', tools: ['search'], status: 'succeeded' }],
      ['data-june-step', { step: 'research:findings', agent: 'agent', status: 'succeeded' }],
    ]);
  });
});
