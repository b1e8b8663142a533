// Wrappers: <RequireApproval> only adds approval, <Namespace> prefixes names, innermost first,
// and each governs only what it contains.
import { Agent, defineCapabilities, inspect, Namespace, RequireApproval, Step, Tool } from 'june';
import { describe, expect, it } from 'vitest';
import { alpha, beta, gamma, makeTool, model, toolsOf } from './support.js';

const free = makeTool('free', false);
const dynamic = makeTool('dynamic', () => false);
const gated = makeTool('gated', true);

describe('<RequireApproval>', () => {
  it('makes every tool inside wait; it only adds the requirement', async () => {
    expect(
      await toolsOf(
        <Agent model={model}>
          <RequireApproval>
            <Tool name="unset" value={alpha} />
            <Tool name="saysFalse" value={free} />
            <Tool name="saysFunction" value={dynamic} />
            <Tool name="saysTrue" value={gated} />
          </RequireApproval>
          <Tool name="outsideFalse" value={free} />
          <Tool name="outsideFunction" value={dynamic} />
          <Tool name="outsideTrue" value={gated} />
        </Agent>,
      ),
    ).toEqual([
      {
        unset: true,
        saysFalse: true,
        saysFunction: true,
        saysTrue: true,
        outsideFalse: false,
        outsideFunction: 'dynamic',
        outsideTrue: true,
      },
    ]);
  });

  it('returns new tools: the declared tool and other agents using it are unchanged', async () => {
    expect(
      await toolsOf(
        <Agent model={model}>
          <RequireApproval>
            <Tool name="wrapped" value={free} />
          </RequireApproval>
          <Tool name="plain" value={free} />
          <Agent model={model}>
            <Tool name="free" value={free} />
          </Agent>
        </Agent>,
      ),
    ).toEqual([{ wrapped: true, plain: false }, { free: false }]);
    expect(free.needsApproval).toBe(false);
  });

  it('around anything applies to it, through namespaces, bundles and fragments inside', async () => {
    const Bundle = defineCapabilities(() => <Tool name="inBundle" value={free} />, {
      name: 'Bundle',
    });
    expect(
      await toolsOf(
        <Agent model={model}>
          <RequireApproval>
            <Namespace name="a">
              <Namespace name="b">
                <Tool name="deep" value={free} />
              </Namespace>
            </Namespace>
            <>
              <Bundle />
            </>
            {[<Tool key="x" name="inArray" value={free} />]}
          </RequireApproval>
        </Agent>,
      ),
    ).toEqual([{ a_b_deep: true, inBundle: true, inArray: true }]);
  });
});

describe('<Namespace>', () => {
  it('puts name_ in front of every tool inside; letters, digits and hyphens are allowed', async () => {
    expect(
      await toolsOf(
        <Agent model={model}>
          <Namespace name="github">
            <Tool name="search" value={alpha} />
          </Namespace>
          <Namespace name="my-docs2">
            <Tool name="search" value={beta} />
          </Namespace>
        </Agent>,
      ),
    ).toEqual([{ github_search: false, 'my-docs2_search': false }]);
  });

  it('nests innermost first: <Namespace a><Namespace b> gives a_b_tool', async () => {
    const report = await inspect(
      <Agent model={model}>
        <Namespace name="a">
          <Namespace name="b">
            <Tool name="tool" value={alpha} />
          </Namespace>
          <Tool name="tool" value={beta} />
        </Namespace>
      </Agent>,
    );
    expect(report.agents[0]!.tools.map((t) => [t.name, t.source])).toEqual([
      ['a_b_tool', '<Tool name="tool"> in <Namespace name="a"> in <Namespace name="b">'],
      ['a_tool', '<Tool name="tool"> in <Namespace name="a">'],
    ]);
  });

  it('lets the same tool name from two sources share an agent', async () => {
    const Issues = defineCapabilities(() => <Tool name="search" value={alpha} />, {
      name: 'Issues',
    });
    const Docs = defineCapabilities(() => <Tool name="search" value={beta} />, { name: 'Docs' });
    expect(
      await toolsOf(
        <Agent model={model}>
          <Namespace name="issues">
            <Issues />
          </Namespace>
          <Namespace name="docs">
            <Docs />
          </Namespace>
        </Agent>,
      ),
    ).toEqual([{ issues_search: false, docs_search: false }]);
  });
});

describe('a wrapper governs only what it contains', () => {
  it("not tools declared beside it, nor a nested agent's tools", async () => {
    expect(
      await toolsOf(
        <Agent model={model}>
          <Tool name="before" value={alpha} />
          <Namespace name="ns">
            <RequireApproval>
              <Tool name="inside" value={beta} />
            </RequireApproval>
          </Namespace>
          <Tool name="after" value={gamma} />
          <Step id="outer" prompt="go" />
          <Agent model={model}>
            <Tool name="inside" value={beta} />
            <Step id="inner" prompt="go" />
          </Agent>
        </Agent>,
      ),
    ).toEqual([{ before: false, ns_inside: true, after: false }, { inside: false }]);
  });

  it("a wrapper inside a bundle governs only the bundle's part", async () => {
    const Mixed = defineCapabilities(
      () => (
        <>
          <Tool name="open" value={alpha} />
          <RequireApproval>
            <Tool name="guarded" value={beta} />
          </RequireApproval>
        </>
      ),
      { name: 'Mixed' },
    );
    expect(
      await toolsOf(
        <Agent model={model}>
          <Mixed />
          <Tool name="own" value={gamma} />
        </Agent>,
      ),
    ).toEqual([{ open: false, guarded: true, own: false }]);
  });
});
