// The capability page's own examples resolve to exactly the tools and approvals it states.
import { inspect, run } from 'june';
import { describe, expect, it } from 'vitest';
import Fix from '../fixtures/spec/fix.js';
import Nested from '../fixtures/spec/nested.js';
import Release from '../fixtures/spec/release.js';
import Summarize from '../fixtures/spec/summarize.js';
import Triage from '../fixtures/spec/triage.js';
import { recordingModel, toolsOf } from './support.js';

describe('the spec examples', () => {
  it('Release: readFile, and deploy waiting for approval', async () => {
    expect(await toolsOf(<Release />)).toEqual([{ readFile: false, deploy: true }]);
    expect(await inspect(<Release />)).toMatchSnapshot();
  });

  it('Nested: the inner agent has search and not readFile', async () => {
    const report = await inspect(<Nested />);
    expect(report.agents.map((a) => a.path)).toEqual(['agent', 'agent > agent']);
    expect(await toolsOf(<Nested />)).toEqual([{ readFile: false }, { search: false }]);
    expect(report).toMatchSnapshot();
  });

  it('Fix: the Files bundle with writable adds readFile and writeFile beside deploy', async () => {
    expect(await toolsOf(<Fix />)).toEqual([{ readFile: false, writeFile: false, deploy: true }]);
    expect(await inspect(<Fix />)).toMatchSnapshot();
  });

  it('Summarize: the inner agent has readFile and not deploy', async () => {
    const report = await inspect(<Summarize />);
    expect(await toolsOf(<Summarize />)).toEqual([
      { readFile: false, deploy: true },
      { readFile: false },
    ]);
    expect(report.agents[1]!.tools[0]).toEqual({
      name: 'readFile',
      needsApproval: false,
      source: '<Inherit capabilities={["readFile"]}>',
      granted: '<Tool name="readFile"> in the enclosing <Agent>',
    });
    expect(report).toMatchSnapshot();
  });

  it("Summarize, run: the summarize step's model is offered readFile alone", async () => {
    const recording = recordingModel();
    await run(<Summarize />, { model: recording }).result;
    const offered = recording.doStreamCalls.map((call) => [
      call.providerOptions?.june?.step,
      (call.tools ?? []).map((t) => t.name),
    ]);
    expect(offered).toEqual([['summarize', ['readFile']]]);
  });

  it('Triage: github_search, github_close and docs_search; only github_close waits', async () => {
    const report = await inspect(<Triage />);
    expect(await toolsOf(<Triage />)).toEqual([
      { github_search: false, github_close: true, docs_search: false },
    ]);
    expect(report.agents[0]!.tools.map((t) => t.source)).toEqual([
      '<Tool name="search"> in <Namespace name="github">',
      '<Tool name="close"> in <Namespace name="github"> in <RequireApproval>',
      '<Tool name="search"> in <Namespace name="docs">',
    ]);
    expect(report).toMatchSnapshot();
  });
});
