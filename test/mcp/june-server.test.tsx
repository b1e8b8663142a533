// A June workflow that calls a served June workflow through defineMCPServer: the served run's
// approval reaches the calling run's inbox as one of its own requests (named by the calling
// call's key and the served request's), its answer goes back as the elicitation's result,
// both runs record who answered, and the calling run's journal keeps the answer so a resumed
// run does not ask again. The server is serveWorkflows on 127.0.0.1, in this process.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Agent,
  defineMCPServer,
  memoryJournalStore,
  run,
  Step,
  type ApprovalRequest,
  type RunHandle,
  type TraceNode,
} from 'june';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approvalsInTrace } from '../../src/host/waiting-approvals.js';
import { serveWorkflows, type ServedMcp } from '../../src/serve/index.js';
import { tempProject } from '../cli/cli-harness.js';
import { turnModel } from '../durable/support.js';
import QuestionShip from '../../examples/questions/ship.js';
import Ship, { props, script } from '../serve/fixtures/ship.js';
import { waitUntil } from './support.js';

const TOKEN = 'outer-run-token-0123456789';

/** The served script with two calls of `ship`, each waiting for approval: staging, then prod. */
const twice = {
  steps: {
    ship: [
      { toolCalls: [{ tool: 'ship', input: { env: 'staging' } }] },
      { toolCalls: [{ tool: 'ship', input: { env: 'prod' } }] },
      { text: 'shipped twice' },
    ],
  },
};

describe('a June run calling a served June workflow', () => {
  let project: ReturnType<typeof tempProject>;
  let log: string;
  const servers: ServedMcp[] = [];

  async function serve(dir = 'runs', served: object = script): Promise<ServedMcp> {
    const server = await serveWorkflows({
      dir: join(project.dir, dir),
      workflows: { ship: { component: Ship, props } },
      tokens: { 'release-agent': TOKEN },
      script: served as typeof script,
    });
    servers.push(server);
    return server;
  }

  /** The calling workflow: its step `go` calls the served `ship` once, then answers. */
  function Caller({ url }: { url: string }) {
    const Releases = defineMCPServer({
      name: 'Releases',
      url,
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    // answers by the turn the request is at, so a resumed run's new copy goes on where it was
    const model = turnModel({
      go: [
        { toolCalls: [{ id: 'call-1', tool: 'ship', input: { version: '1.2', log } }] },
        { text: 'the release went out' },
      ],
    });
    return (
      <Agent model={model}>
        <Releases />
        <Step id="go" prompt="Ship 1.2 through the release service" />
      </Agent>
    );
  }

  beforeEach(() => {
    project = tempProject();
    log = join(project.dir, 'ship.log');
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
    project.remove();
  });

  const shipped = () =>
    existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];

  /** The request the calling run waits for next. */
  async function waiting(handle: RunHandle, count = 1): Promise<ApprovalRequest> {
    await waitUntil(
      () => handle.pendingApprovals.length >= count,
      'the calling run waits for the served approval',
    );
    return handle.pendingApprovals[count - 1]!;
  }

  const toolNodes = (node: TraceNode): TraceNode[] => [
    ...(node.kind === 'tool' ? [node] : []),
    ...node.children.flatMap(toolNodes),
  ];

  it("asks the served run's approval in the calling run; the handle's answer (an edit) runs the served tool once", async () => {
    const server = await serve();
    const handle = run(<Caller url={server.url} />, { journal: memoryJournalStore() });
    const request = await waiting(handle);

    // the served request, as a request of the calling run under its call
    expect(request).toMatchObject({
      tool: 'ship',
      input: { env: 'prod' },
      step: 'go',
      key: `${handle.runId}/go#0.0/ship#0.0`,
    });
    expect(request.kind).toBeUndefined();
    handle.approve(request.id, { input: { env: 'staging' }, answeredBy: 'ana' });
    const result = await handle.result;

    expect(result.output).toBe('the release went out');
    expect(shipped()).toEqual(['1.2 staging']);
    // the calling run: its call of ship, and under it the served request with its answer
    const [call, asked] = toolNodes(result.trace.root);
    expect(call).toMatchObject({
      name: 'ship',
      status: 'succeeded',
      input: { version: '1.2', log },
    });
    expect(call!.approval).toBeUndefined();
    expect(call!.children).toEqual([asked]);
    expect(asked).toMatchObject({ name: 'ship', status: 'succeeded', input: { env: 'prod' } });
    expect(asked!.approval).toMatchObject({
      key: `${handle.runId}/go#0.0/ship#0.0`,
      status: 'approved',
      input: { env: 'staging' },
      source: 'handle',
      answeredBy: 'ana',
    });
    // the served run: the client's answer through mcp, with the edited input
    const [served] = await server.host.list();
    expect(served!.runId).toMatch(/^mcp-/);
    const inner = await server.host.result(served!.runId);
    expect(toolNodes(inner.root)[0]!.approval).toMatchObject({
      status: 'approved',
      source: 'mcp',
      answeredBy: 'release-agent',
      input: { env: 'staging' },
    });
  });

  it('refuses an edit the served form does not take, where it is given; the request goes on waiting', async () => {
    const server = await serve();
    const handle = run(<Caller url={server.url} />);
    const request = await waiting(handle);
    expect(() => handle.approve(request.id, { input: { env: 'qa' } })).toThrow(
      /june: the edited input .* does not fit the tool's input schema: \$\.env: expected one of "staging"\|"prod"/,
    );
    expect(handle.pendingApprovals.map((pending) => pending.id)).toEqual([request.id]);
    handle.approve(request.id);
    await handle.result;
    expect(shipped()).toEqual(['1.2 prod']);
  });

  it('a denial in the calling run denies the served call with its reason; the served tool never runs', async () => {
    const server = await serve();
    const handle = run(<Caller url={server.url} />);
    const request = await waiting(handle);
    handle.deny(request.id, 'not this week');
    const result = await handle.result;
    const [, asked] = toolNodes(result.trace.root);
    expect(asked).toMatchObject({ status: 'denied', approval: { status: 'denied' } });

    expect(shipped()).toEqual([]);
    const [served] = await server.host.list();
    const inner = await server.host.result(served!.runId);
    expect(toolNodes(inner.root)[0]!.approval).toMatchObject({
      status: 'denied',
      reason: 'not this week',
      source: 'mcp',
    });
  });

  it('an answer given on the served side first (its run host, as its Studio answers) withdraws the calling run’s request; the call returns', async () => {
    const server = await serve();
    const handle = run(<Caller url={server.url} />);
    const request = await waiting(handle);
    const [served] = await server.host.list();
    const [call] = (await server.host.decisions(served!.runId)).waiting;
    await server.host.answer(served!.runId, { key: call!.key, approved: true, answeredBy: 'ops' });
    const result = await handle.result;

    expect(result.output).toBe('the release went out');
    expect(shipped()).toEqual(['1.2 prod']);
    expect(() => handle.approve(request.id)).toThrow(
      /withdrawn \(the call that asked it ended first\)/,
    );
    const [, asked] = toolNodes(result.trace.root);
    expect(asked).toMatchObject({ status: 'aborted', approval: { status: 'withdrawn' } });
    const inner = await server.host.result(served!.runId);
    expect(toolNodes(inner.root)[0]!.approval).toMatchObject({
      source: 'host',
      answeredBy: 'ops',
    });
  });

  it("asks the served run's questions as questions of the calling run; the answers fill their forms", async () => {
    const server = await serveWorkflows({
      dir: join(project.dir, 'runs'),
      workflows: { ship: QuestionShip },
      tokens: { 'release-agent': TOKEN },
      script: {
        steps: {
          ship: [
            {
              toolCalls: [
                { tool: 'ask_env', input: {} },
                { tool: 'ask_notes', input: { question: 'Title and highlights?' } },
              ],
            },
            {
              toolCalls: [
                { tool: 'deploy', input: { version: '1.2.0', env: 'prod', title: 'Faster' } },
              ],
            },
            { text: 'shipped 1.2.0' },
          ],
        },
      },
    });
    servers.push(server);
    const Releases = defineMCPServer({
      name: 'Releases',
      url: server.url,
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    const model = turnModel({
      go: [
        { toolCalls: [{ id: 'call-1', tool: 'ship', input: {} }] },
        { text: 'asked and shipped' },
      ],
    });
    const handle = run(
      <Agent model={model}>
        <Releases />
        <Step id="go" prompt="Ship through the release service" />
      </Agent>,
    );
    await waiting(handle, 2);
    const [env, notes] = [...handle.pendingApprovals].sort((a, b) => a.key!.localeCompare(b.key!));
    expect(env).toMatchObject({
      kind: 'question',
      tool: 'ask_env',
      key: `${handle.runId}/go#call-1/ship#0.0`,
      question: { prompt: 'Where should 1.2.0 go?' },
    });
    expect(notes).toMatchObject({
      kind: 'question',
      tool: 'ask_notes',
      key: `${handle.runId}/go#call-1/ship#0.1`,
      question: { prompt: 'Title and highlights?' },
    });
    // as Studio and june approve list them: each on its own, under the calling step
    expect(
      approvalsInTrace(handle.trace()).map(({ key, tool, step, kind }) => ({
        key,
        tool,
        step,
        kind,
      })),
    ).toEqual([
      { key: env!.key, tool: 'ask_env', step: 'go', kind: 'question' },
      { key: notes!.key, tool: 'ask_notes', step: 'go', kind: 'question' },
    ]);
    handle.respond(env!.id, 'prod', { answeredBy: 'ana' });
    handle.respond(notes!.id, { title: 'Faster', highlights: ['cache'] }, { answeredBy: 'ana' });
    const result = await handle.result;
    expect(result.output).toBe('asked and shipped');

    const [served] = await server.host.list();
    const inner = await server.host.result(served!.runId);
    const asked = toolNodes(inner.root).filter((node) => node.approval?.kind === 'question');
    expect(asked.map((node) => [node.name, node.approval?.output, node.approval?.source])).toEqual([
      ['ask_env', 'prod', 'mcp'],
      ['ask_notes', { title: 'Faster', highlights: ['cache'] }, 'mcp'],
    ]);
  });

  it('a resumed calling run gives its recorded answer again: the served run asks, nobody else is asked', async () => {
    // the first server: the call's first approval is answered, then the calling run stops
    const first = await serve('runs-1', twice);
    const store = memoryJournalStore();
    const handle = run(<Caller url={first.url} />, { journal: store });
    const staging = await waiting(handle);
    expect(staging.key).toBe(`${handle.runId}/go#0.0/ship#0.0`);
    handle.approve(staging.id, { answeredBy: 'ana' });
    const prod = await waiting(handle);
    expect(prod).toMatchObject({
      key: `${handle.runId}/go#0.0/ship#1.0`,
      input: { env: 'prod' },
    });
    handle.abort('the process stopped');
    await handle.result.catch(() => {});
    expect(shipped()).toEqual(['1.2 staging']);

    // a server that lost its runs: the call starts the served run afresh, whose first request
    // the calling run answers from its journal; only the second is asked
    const second = await serve('runs-2', twice);
    const asked: ApprovalRequest[] = [];
    const resumed = run(<Caller url={second.url} />, {
      journal: store,
      resume: handle.runId,
      onApproval: (request) => {
        asked.push(request);
        return true;
      },
    });
    const result = await resumed.result;
    expect(result.output).toBe('the release went out');
    expect(asked.map((request) => request.key)).toEqual([`${handle.runId}/go#0.0/ship#1.0`]);
    expect(shipped()).toEqual(['1.2 staging', '1.2 staging', '1.2 prod']);
    const [call, ...requests] = toolNodes(result.trace.root);
    expect(call!.status).toBe('succeeded');
    // the recorded answer, given again, and the one asked now
    expect(requests.map((node) => node.approval)).toMatchObject([
      { key: `${handle.runId}/go#0.0/ship#0.0`, status: 'approved', replayed: true },
      { key: `${handle.runId}/go#0.0/ship#1.0`, status: 'approved', automatic: true },
    ]);
    const answers = (await store.read(handle.runId)).filter(
      (record) => record.type === 'approval-answer',
    );
    expect(answers).toMatchObject([
      { call: 'go#0.0/ship#0.0', approved: true, answeredBy: 'ana' },
      { call: 'go#0.0/ship#1.0', approved: true, automatic: true },
    ]);
  });
});
