// Contract tests per model specification, as a user meets June: the packed June installed into
// fresh projects outside the repository, each with the packages a user of that platform has.
//
// - spec-versions: one workflow (a tool that needs approval) run with a v2, a v3 and a v4 model
//   (a hand-written LanguageModelV2, ai/test's MockLanguageModelV3 and MockLanguageModelV4),
//   streaming and in batch mode, journaled and stopped, resumed in a new process, and replayed
//   in another, all through `run()`; the project type-checks with tsc (each specification's
//   model is an <Agent model> as it is).
// - current-platform: ai@7, @ai-sdk/openai@4 against a fake Responses API on 127.0.0.1, and the
//   tools of an @ai-sdk/mcp@2 client of a real MCP server: text, a tool, an approval, a
//   composite tool, Output.object, MCP tools; tool(), Output.object() and MCP tools type-check
//   as June's props.
//
// Offline but for npm's registry, which is asked only for what npm's cache lacks. June is
// packed from dist/ as built (`npm test` builds it first).
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeOpenAI,
  type FakeOpenAIReply,
  type FakeOpenAIServer,
} from '../helpers/fake-openai-server.js';
import { described, type Ran } from '../helpers/packed-june.js';
import { everythingScript } from '../mcp/support.js';
import {
  once,
  scriptLines,
  setUpCompatProjects,
  typeCheck,
  type CompatFolders,
} from './compat-projects.js';

const PROJECTS = {
  specVersions: {
    template: 'spec-versions',
    packages: ['ai', '@ai-sdk/provider', 'zod', 'typescript', '@types/node', 'tsx'],
  },
  currentPlatform: {
    template: 'current-platform',
    packages: ['ai', '@ai-sdk/openai', '@ai-sdk/mcp', 'zod', 'typescript', '@types/node', 'tsx'],
  },
} as const;

let work: string;
let projects: CompatFolders<keyof typeof PROJECTS>;
/** The type checks, started as soon as the projects are installed, beside the runs. */
let typeChecks: Record<keyof typeof PROJECTS, Promise<Ran>>;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'june-compat-'));
  projects = await setUpCompatProjects(work, PROJECTS);
  typeChecks = {
    specVersions: typeCheck(projects.specVersions),
    currentPlatform: typeCheck(projects.currentPlatform),
  };
}, 240_000);

afterAll(async () => {
  await Promise.allSettled(Object.values(typeChecks ?? {}));
  if (work) await rm(work, { recursive: true, force: true });
});

// the first test of each block to run starts the project's processes
describe('a project per model specification: v2, v3 and v4', { timeout: 120_000 }, () => {
  /** What a run did, as the project's observe.ts reports it. */
  interface RunReport {
    runId: string;
    events: string[];
    deltas: string[];
    answers: Array<{ approved: boolean; automatic: boolean; replayed?: boolean }>;
    output?: unknown;
    usage?: { inputTokens?: number; outputTokens?: number };
    modelNodes?: number;
    error?: { code?: string; message: string };
    calls: { generate: number; stream: number };
    deployed: string[];
    records?: string[];
  }
  type Phase = Record<string, RunReport>;

  const SPECS = ['v2', 'v3', 'v4'] as const;
  const MODES = ['stream', 'batch'] as const;
  /** Each specification in each mode, as `[spec, mode]` (the test names' `%s`s). */
  const each = SPECS.flatMap((spec) => MODES.map((mode) => [spec, mode] as const));
  const keyOf = (spec: string, mode: string) => `${spec}/${mode}`;

  // each phase is a process of its own, after the one before it
  const record = once(
    async () => (await scriptLines(projects.specVersions, 'record.tsx')).at(-1) as Phase,
  );
  const resume = once(async () => {
    await record();
    return (await scriptLines(projects.specVersions, 'resume.tsx')).at(-1) as Phase;
  });
  const replay = once(async () => {
    await resume();
    return (await scriptLines(projects.specVersions, 'replay.tsx')).at(-1) as Phase;
  });

  /** The provider call a mode makes: `doStream` when streaming, `doGenerate` in batch mode. */
  const calls = (mode: 'stream' | 'batch', count: number) =>
    mode === 'stream' ? { generate: 0, stream: count } : { generate: count, stream: 0 };
  /** The model's answer after the tool: two text parts, one delta in batch mode. */
  const deltas = (mode: 'stream' | 'batch') =>
    mode === 'stream' ? ['Deployed to ', 'staging.'] : ['Deployed to staging.'];
  /** The documented event order (`handle.events`, the whole log) for a step whose model calls one tool that needs approval. */
  const events = (mode: 'stream' | 'batch', { asked }: { asked: boolean }) => [
    'run-start',
    'agent-start',
    'step-start',
    'model-start',
    'tool-call',
    'model-finish',
    ...(asked ? ['approval-request'] : []),
    'approval-response',
    'tool-result',
    'model-start',
    ...deltas(mode).map(() => 'text-delta'),
    'model-finish',
    'step-finish',
    'agent-finish',
    'run-finish',
  ];
  const finished = {
    output: 'Deployed to staging.',
    usage: { inputTokens: 20, outputTokens: 10 },
    modelNodes: 2,
    deployed: ['staging'],
  };

  it.for(each)('%s model, %s: runs to its end', async ([spec, mode]) => {
    const key = keyOf(spec, mode);
    const runs = await record();
    expect(runs[key]).toEqual({
      ...finished,
      runId: expect.any(String),
      events: events(mode, { asked: true }),
      deltas: deltas(mode),
      answers: [{ approved: true, automatic: true }],
      calls: calls(mode, 2),
    });
  });

  it.for(MODES)(
    'a model of a specification June does not take, %s: fails with June’s error, never called',
    async (mode) => {
      const runs = await record();
      expect(runs[`unknown/${mode}`]).toMatchObject({
        error: { code: 'model-spec-unsupported', message: expect.stringMatching(/^june: .*"v9"/) },
        calls: calls(mode, 0),
        deployed: [],
      });
      // it says what to install instead
      expect(runs[`unknown/${mode}`]!.error!.message).toMatch(/install/);
    },
  );

  it.for(each)(
    '%s model, %s: journals its model call in a run stopped while an approval waits',
    async ([spec, mode]) => {
      const key = keyOf(spec, mode);
      const runs = await record();
      expect(runs[`${key}/stopped`]).toMatchObject({
        error: { code: 'run-aborted' },
        calls: calls(mode, 1),
        deployed: [],
        records: ['journal', 'model-call', 'approval-request', 'run-finish'],
      });
    },
  );

  it.for(each)(
    '%s model, %s: resumes in a new process, calling the model only for what the journal lacks',
    async ([spec, mode]) => {
      const key = keyOf(spec, mode);
      const [stopped, runs] = [await record(), await resume()];
      expect(runs[key]).toEqual({
        ...finished,
        runId: stopped[`${key}/stopped`]!.runId,
        events: events(mode, { asked: true }),
        deltas: deltas(mode),
        answers: [{ approved: true, automatic: true }],
        calls: calls(mode, 1),
        records: [
          ...stopped[`${key}/stopped`]!.records!,
          'resume',
          'approval-answer',
          'tool-call',
          'model-call',
          'run-finish',
        ],
      });
    },
  );

  it.for(each)(
    '%s model, %s: replays the journal in a new process without calling the model',
    async ([spec, mode]) => {
      const key = keyOf(spec, mode);
      const runs = await replay();
      expect(runs[key]).toEqual({
        ...finished,
        runId: expect.any(String),
        events: events(mode, { asked: false }),
        deltas: deltas(mode),
        answers: [{ approved: true, automatic: true, replayed: true }],
        calls: calls(mode, 0),
      });
    },
  );

  it('type-checks with tsc, strict, as the docs set a project up, each model as it is', async () => {
    const tsc = await typeChecks.specVersions;
    expect(tsc.code, described('tsc', tsc)).toBe(0);
  });
});

describe('a project on ai@7, @ai-sdk/openai@4 and @ai-sdk/mcp@2', { timeout: 120_000 }, () => {
  /** What platform.tsx prints for each case. */
  interface CaseReport {
    case: string;
    output?: unknown;
    error?: { code?: string; message: string };
    events: string[];
    deltas: string[];
    toolResults: Array<{ tool: string; output: unknown }>;
    refunds?: string[];
  }

  // the replies of the fake Responses API, case by case in the order platform.tsx runs them
  const CASES = {
    text: [{ text: 'Hello from a v4 model.' }],
    'text-batch': [{ text: 'Hello from a v4 model.' }],
    tool: [
      { toolCalls: [{ name: 'weather', arguments: { city: 'Oslo' } }] },
      { text: 'Take a coat: it is 4C.' },
    ],
    approval: [
      { toolCalls: [{ name: 'refund', arguments: { order: 'A1', amount: 25 } }] },
      { text: 'Order A1 is refunded.' },
    ],
    composite: [
      { toolCalls: [{ name: 'research', arguments: { question: 'How does Suspense work?' } }] },
      { text: 'Suspense shows a fallback until data arrives.' },
      { text: 'In short: a fallback until the data arrives.' },
    ],
    output: [{ text: '{"coat":true,"reason":"it is 4C"}' }],
    mcp: [
      { toolCalls: [{ name: 'get-sum', arguments: { a: 19, b: 23 } }] },
      { text: '19 + 23 = 42.' },
    ],
    'june-sdk-openai': [{ text: 'Hello through june/sdk/openai.' }],
  } satisfies Record<string, FakeOpenAIReply[]>;
  type CaseName = keyof typeof CASES;

  let server: FakeOpenAIServer | undefined;
  afterAll(() => server?.close());

  /** Every case's report and the requests the fake server got for it. */
  const platform = once(async () => {
    server = await startFakeOpenAI();
    for (const replies of Object.values(CASES)) server.reply(...replies);
    const lines = (await scriptLines(projects.currentPlatform, 'platform.tsx', {
      OPENAI_BASE_URL: server.baseURL,
      MCP_SERVER_SCRIPT: everythingScript,
    })) as CaseReport[];
    let next = 0;
    return Object.fromEntries(
      (Object.keys(CASES) as CaseName[]).map((name) => {
        const requests = server!.requests.slice(next, (next += CASES[name].length));
        return [name, { report: lines.find((line) => line.case === name)!, requests }];
      }),
    ) as Record<CaseName, { report: CaseReport; requests: FakeOpenAIServer['requests'] }>;
  });

  /** One case's report and requests; fails with the case's error when its run failed. */
  async function platformCase(name: CaseName) {
    const found = (await platform())[name];
    expect(found.report, `platform.tsx printed no line for ${name}`).toBeDefined();
    expect(found.report.error, `${name} failed`).toBeUndefined();
    return found;
  }

  /** The outputs of the function calls a request sends back to the model. */
  const callOutputs = (request: { body: any }) =>
    (request.body.input as Array<{ type: string; output?: unknown }>)
      .filter((item) => item.type === 'function_call_output')
      .map((item) => item.output);

  it('has the current majors of the AI SDK, which June shares', () => {
    const versionIn = (project: string, name: string) =>
      (
        JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')) as {
          version: string;
        }
      ).version;
    const majors = { ai: '7', '@ai-sdk/provider': '4', '@ai-sdk/openai': '4', '@ai-sdk/mcp': '2' };
    for (const [name, major] of Object.entries(majors))
      expect(versionIn(projects.currentPlatform, name), name).toMatch(new RegExp(`^${major}\\.`));
    expect(versionIn(projects.specVersions, '@ai-sdk/provider')).toMatch(/^4\./);
  });

  it('holds one copy of the AI SDK: June uses the project’s own', async () => {
    for (const project of Object.values(projects))
      for (const name of ['ai', '@ai-sdk/provider', '@ai-sdk/openai', '@ai-sdk/mcp'])
        expect(existsSync(join(project, 'node_modules', 'june', 'node_modules', name)), name).toBe(
          false,
        );
  });

  it('a v4 model from @ai-sdk/openai@4 answers, streaming and in batch mode', async () => {
    const [text, batch] = [await platformCase('text'), await platformCase('text-batch')];
    for (const { report } of [text, batch])
      expect(report).toMatchObject({ output: 'Hello from a v4 model.', toolResults: [] });
    expect(text.report.deltas.length).toBeGreaterThan(1);
    expect(text.report.deltas.join('')).toBe('Hello from a v4 model.');
    expect(batch.report.deltas).toEqual(['Hello from a v4 model.']);
    expect(text.requests.map((r) => [r.path, r.stream, r.body.model])).toEqual([
      ['/v1/responses', true, 'gpt-5-mini'],
    ]);
    expect(batch.requests.map((r) => [r.path, r.stream, r.body.model])).toEqual([
      ['/v1/responses', false, 'gpt-5-mini'],
    ]);
  });

  it('runs an ai@7 tool() given as <Tool value>', async () => {
    const { report, requests } = await platformCase('tool');
    expect(report.output).toBe('Take a coat: it is 4C.');
    expect(report.toolResults).toEqual([{ tool: 'weather', output: { city: 'Oslo', celsius: 4 } }]);
    expect(requests[0]!.body.tools.map((t: { name: string }) => t.name)).toEqual(['weather']);
    expect(callOutputs(requests[1]!)).toEqual([JSON.stringify({ city: 'Oslo', celsius: 4 })]);
  });

  it('asks for approval, and runs the tool once it is approved through the handle', async () => {
    const { report, requests } = await platformCase('approval');
    expect(report.output).toBe('Order A1 is refunded.');
    expect(report.refunds).toEqual(['A1']);
    expect(
      report.events.filter((type) => type.startsWith('approval-') || type.startsWith('tool-')),
    ).toEqual(['tool-call', 'approval-request', 'approval-response', 'tool-result']);
    expect(callOutputs(requests[1]!)).toEqual([JSON.stringify({ order: 'A1', refunded: 25 })]);
  });

  it('runs a composite tool as a child run with its own v4 model', async () => {
    const { report, requests } = await platformCase('composite');
    expect(report.output).toBe('In short: a fallback until the data arrives.');
    expect(requests.map((r) => r.body.model)).toEqual(['gpt-5-mini', 'gpt-5-nano', 'gpt-5-mini']);
    expect(JSON.stringify(requests[1]!.body.input)).toContain('Research: How does Suspense work?');
    expect(callOutputs(requests[2]!)).toEqual(['Suspense shows a fallback until data arrives.']);
    // a composite call's result carries its child run (output, trace, usage); the model reads the output
    expect(report.toolResults).toEqual([
      {
        tool: 'research',
        output: expect.objectContaining({
          output: 'Suspense shows a fallback until data arrives.',
        }),
      },
    ]);
  });

  it('gives a step with ai@7’s Output.object its parsed object', async () => {
    const { report, requests } = await platformCase('output');
    expect(report.output).toEqual({ coat: true, reason: 'it is 4C' });
    expect(requests[0]!.body.text.format).toMatchObject({
      type: 'json_schema',
      schema: { properties: { coat: { type: 'boolean' }, reason: { type: 'string' } } },
    });
  });

  it('runs the tools of an @ai-sdk/mcp@2 client given as <Agent tools>', async () => {
    const { report, requests } = await platformCase('mcp');
    expect(report.output).toBe('19 + 23 = 42.');
    expect(requests[0]!.body.tools.map((t: { name: string }) => t.name)).toContain('get-sum');
    expect(report.toolResults.map((r) => r.tool)).toEqual(['get-sum']);
    expect(JSON.stringify(callOutputs(requests[1]!))).toContain('The sum of 19 and 23 is 42.');
  });

  it('answers through june/sdk/openai, configured from OPENAI_BASE_URL', async () => {
    const { report, requests } = await platformCase('june-sdk-openai');
    expect(report.output).toBe('Hello through june/sdk/openai.');
    expect(requests.map((r) => r.body.model)).toEqual(['gpt-5-mini']);
  });

  it('type-checks tool(), Output.object() and MCP tools as <Tool value>, a step’s output and <Agent tools>', async () => {
    const tsc = await typeChecks.currentPlatform;
    expect(tsc.code, described('tsc', tsc)).toBe(0);
  });
});
