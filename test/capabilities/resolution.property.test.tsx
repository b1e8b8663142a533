// A property test over random trees of tools, bundles, wrappers, fragments, conditions and
// nested agents with grants: inspect() returns exactly the names and approval flags an
// independent model of the rules predicts, or fails with the JuneError it predicts; never
// anything else.
import { tool, type Tool as AiTool } from 'ai';
import fc from 'fast-check';
import {
  Agent,
  defineCapabilities,
  Inherit,
  inspect,
  JuneError,
  Namespace,
  RequireApproval,
  Step,
  Tool,
  type JuneNode,
} from 'june';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { model } from './support.js';

type Approval = 'unset' | 'false' | 'true' | 'function';
type Flag = boolean | 'dynamic';

type Cap =
  | { t: 'tool'; name: string; approval: Approval }
  | { t: 'namespace'; name: string; children: Cap[] }
  | { t: 'require-approval'; children: Cap[] }
  | { t: 'fragment'; children: Cap[] }
  | { t: 'array'; children: Cap[] }
  | { t: 'condition'; on: boolean; child: Cap }
  | { t: 'bundle'; children: Cap[] }
  /**
   * An <Inherit>: `picks` choose among the names the parent has (so grants often succeed),
   * `extra` adds a name that may be missing. The names are fixed while the rules are modelled.
   */
  | { t: 'inherit'; picks: number[]; extra: string | null }
  /** A <Step>: fine among an agent's children, an error inside a bundle or wrapper. */
  | { t: 'step' };

type Item = Cap | { t: 'agent'; agent: AgentSpec };
interface AgentSpec {
  items: Item[];
  toolsProp: string[];
}

const TOOLS: Record<Approval, AiTool<Record<string, never>, string>> = {
  unset: tool({ inputSchema: z.object({}), execute: async () => 'ok' }),
  false: tool({ inputSchema: z.object({}), needsApproval: false, execute: async () => 'ok' }),
  true: tool({ inputSchema: z.object({}), needsApproval: true, execute: async () => 'ok' }),
  function: tool({
    inputSchema: z.object({}),
    needsApproval: async () => true,
    execute: async () => 'ok',
  }),
};
const FLAG: Record<Approval, Flag> = {
  unset: false,
  false: false,
  true: true,
  function: 'dynamic',
};

const VALID_NAMESPACE = /^[A-Za-z][A-Za-z0-9-]*$/;
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

// ---- generators ----

/** Nested agents mostly use other names than the outermost one: a grant can still collide on "a". */
const OUTER_NAMES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'search'];
const NESTED_NAMES = ['k', 'l', 'm', 'n', 'o', 'r', 's', 'a'];
const namespaceName = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('x', 'y', 'gh', 'my-ns', 'N2') },
  { weight: 1, arbitrary: fc.constantFrom('bad name', '1x', '', 'x_y', '-x') },
  { weight: 1, arbitrary: fc.constant('n'.repeat(60)) },
);
const extraGrant = fc.oneof(
  { weight: 6, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom('a', 'x_a', 'p', 'missing') },
);

/** `inheritWeight` is low for the outermost agent, where any <Inherit> fails. */
function capArb(depth: number, inheritWeight: number, names: string[]): fc.Arbitrary<Cap> {
  const leaves: Array<fc.WeightedArbitrary<Cap>> = [
    {
      weight: 12,
      arbitrary: fc.record({
        t: fc.constant('tool' as const),
        name: fc.constantFrom(...names),
        approval: fc.constantFrom<Approval>('unset', 'false', 'true', 'function'),
      }),
    },
    {
      weight: inheritWeight,
      arbitrary: fc.record({
        t: fc.constant('inherit' as const),
        picks: fc.array(fc.nat(9), { minLength: 1, maxLength: 2 }),
        extra: extraGrant,
      }),
    },
    { weight: 1, arbitrary: fc.constant({ t: 'step' as const }) },
  ].filter((leaf) => leaf.weight > 0);
  if (depth === 0) return fc.oneof(...leaves);
  const children = fc.array(capArb(depth - 1, inheritWeight, names), { maxLength: 3 });
  return fc.oneof(
    ...leaves,
    {
      weight: 2,
      arbitrary: fc.record({ t: fc.constant('namespace' as const), name: namespaceName, children }),
    },
    { weight: 2, arbitrary: fc.record({ t: fc.constant('require-approval' as const), children }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('fragment' as const), children }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('array' as const), children }) },
    {
      weight: 1,
      arbitrary: fc.record({
        t: fc.constant('condition' as const),
        on: fc.boolean(),
        child: capArb(depth - 1, inheritWeight, names),
      }),
    },
    { weight: 2, arbitrary: fc.record({ t: fc.constant('bundle' as const), children }) },
  );
}

function agentArb(depth: number, outermost: boolean): fc.Arbitrary<AgentSpec> {
  const cap = capArb(2, outermost ? 0 : 10, outermost ? OUTER_NAMES : NESTED_NAMES);
  const item: fc.Arbitrary<Item> =
    depth === 0
      ? cap
      : fc.oneof(
          { weight: 3, arbitrary: cap },
          {
            weight: 2,
            arbitrary: fc.record({
              t: fc.constant('agent' as const),
              agent: agentArb(depth - 1, false),
            }),
          },
        );
  const items = fc.array(item, { maxLength: outermost ? 6 : 3 });
  // Now and then the outermost agent has an <Inherit> too, which always fails.
  const withStrayGrant = outermost
    ? fc
        .tuple(items, fc.integer({ min: 0, max: 39 }))
        .map(([list, roll]): Item[] =>
          roll === 0 ? [{ t: 'inherit', picks: [0], extra: null }, ...list] : list,
        )
    : items;
  return fc.record({ items: withStrayGrant, toolsProp: fc.subarray(['a', 'p', 'q']) });
}

// ---- the tree as JSX ----

/** Names each <Inherit> lists, fixed by the model; one that the model never reached lists "a". */
type Grants = Map<Cap, string[]>;

function buildAgent(spec: AgentSpec, ids: { next: number; grants: Grants }): JuneNode {
  const tools = Object.fromEntries(spec.toolsProp.map((name) => [name, TOOLS.unset]));
  return (
    <Agent model={model} tools={tools}>
      {spec.items.map((item) =>
        item.t === 'agent' ? buildAgent(item.agent, ids) : buildCap(item, ids),
      )}
    </Agent>
  );
}

function buildCap(cap: Cap, ids: { next: number; grants: Grants }): JuneNode {
  switch (cap.t) {
    case 'tool':
      return <Tool name={cap.name} value={TOOLS[cap.approval]} />;
    case 'inherit':
      return <Inherit capabilities={ids.grants.get(cap) ?? ['a']} />;
    case 'step':
      return <Step id={`s${ids.next++}`} prompt="go" />;
    case 'namespace':
      return <Namespace name={cap.name}>{cap.children.map((c) => buildCap(c, ids))}</Namespace>;
    case 'require-approval':
      return <RequireApproval>{cap.children.map((c) => buildCap(c, ids))}</RequireApproval>;
    case 'fragment':
      return <>{cap.children.map((c) => buildCap(c, ids))}</>;
    case 'array':
      return cap.children.map((c) => buildCap(c, ids));
    case 'condition':
      return cap.on && buildCap(cap.child, ids);
    case 'bundle': {
      const body = cap.children.map((c) => buildCap(c, ids));
      const Bundle = defineCapabilities(() => body, { name: `B${ids.next++}` });
      return <Bundle />;
    }
  }
}

// ---- the rules, modelled independently ----

class Expected extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

type Frame =
  { kind: 'namespace'; name: string } | { kind: 'require-approval' } | { kind: 'bundle' };

function expectAgent(
  spec: AgentSpec,
  parent: Map<string, Flag> | undefined,
  out: Array<Array<[string, Flag]>>,
  grants: Grants,
): void {
  const declarations: Array<{ cap: Extract<Cap, { t: 'tool' | 'inherit' }>; frames: Frame[] }> = [];
  const nested: AgentSpec[] = [];
  const walk = (caps: Cap[], frames: Frame[]) => {
    for (const cap of caps) {
      switch (cap.t) {
        case 'tool':
        case 'inherit':
          declarations.push({ cap, frames });
          break;
        case 'step':
          if (frames.length > 0)
            throw new Expected(
              frames.at(-1)!.kind === 'bundle'
                ? 'bundle-content-invalid'
                : 'wrapper-content-invalid',
            );
          break;
        case 'namespace':
          if (!VALID_NAMESPACE.test(cap.name)) throw new Expected('namespace-name-invalid');
          walk(cap.children, [...frames, { kind: 'namespace', name: cap.name }]);
          break;
        case 'require-approval':
          walk(cap.children, [...frames, { kind: 'require-approval' }]);
          break;
        case 'bundle':
          walk(cap.children, [...frames, { kind: 'bundle' }]);
          break;
        case 'fragment':
        case 'array':
          walk(cap.children, frames);
          break;
        case 'condition':
          if (cap.on) walk([cap.child], frames);
          break;
      }
    }
  };
  for (const item of spec.items) {
    if (item.t === 'agent') nested.push(item.agent);
    else walk([item], []);
  }

  const scope = new Map<string, Flag>();
  const inherited = new Set<string>();
  let picked = 0;
  const add = (name: string, flag: Flag) => {
    if (scope.has(name)) throw new Expected('capability-collision');
    scope.set(name, flag);
  };
  for (const { cap, frames } of declarations) {
    const bases: Array<[string, Flag]> = [];
    if (cap.t === 'tool') bases.push([cap.name, FLAG[cap.approval]]);
    else {
      if (!parent) throw new Expected('inherit-outside-agent');
      const has = [...parent.keys()];
      // Successive picks move on through the parent's names and stop when all were taken, so
      // a name repeats only through `extra`.
      const fresh = cap.picks.flatMap((i) =>
        picked < has.length ? [has[(i + picked++) % has.length]!] : [],
      );
      const names = [...new Set(fresh), ...(cap.extra === null ? [] : [cap.extra])];
      grants.set(cap, names);
      for (const name of names) {
        if (inherited.has(name)) throw new Expected('inherit-duplicate-name');
        inherited.add(name);
        if (!parent.has(name)) throw new Expected('inherit-unknown-name');
        bases.push([name, parent.get(name)!]);
      }
    }
    const prefix = frames.flatMap((f) => (f.kind === 'namespace' ? [`${f.name}_`] : [])).join('');
    const approved = frames.some((f) => f.kind === 'require-approval');
    for (const [base, flag] of bases) {
      const name = prefix + base;
      if (name.length > 64) throw new Expected('tool-name-invalid');
      add(name, approved ? true : flag);
    }
  }
  for (const name of spec.toolsProp) add(name, false);
  out.push([...scope]);
  for (const child of nested) expectAgent(child, scope, out, grants);
}

function predict(
  spec: AgentSpec,
  grants: Grants,
): { agents: Array<Array<[string, Flag]>> } | { code: string } {
  const agents: Array<Array<[string, Flag]>> = [];
  try {
    expectAgent(spec, undefined, agents, grants);
    return { agents };
  } catch (error) {
    if (error instanceof Expected) return { code: error.code };
    throw error;
  }
}

describe('capability resolution over random trees', () => {
  it('gives unique, valid names with the approvals the wrappers say, or the predicted JuneError', async () => {
    const outcomes = { resolved: 0, failed: 0, granted: 0 };
    await fc.assert(
      fc.asyncProperty(agentArb(2, true), async (spec) => {
        const grants: Grants = new Map();
        const expected = predict(spec, grants);
        let report;
        try {
          report = await inspect(buildAgent(spec, { next: 0, grants }) as never);
        } catch (error) {
          if (!JuneError.isInstance(error))
            throw new Error(`not a JuneError: ${String(error)}`, { cause: error });
          expect(error.message.startsWith('june: ')).toBe(true);
          expect('code' in expected ? expected.code : 'no error').toBe(error.code);
          outcomes.failed++;
          return;
        }
        expect(
          'agents' in expected ? 'resolved' : `fails with ${(expected as { code: string }).code}`,
        ).toBe('resolved');
        const agents = report.agents.map((agent) =>
          agent.tools.map((t): [string, Flag] => [t.name, t.needsApproval]),
        );
        expect(agents).toEqual((expected as { agents: unknown }).agents);
        for (const agent of report.agents) {
          const names = agent.tools.map((t) => t.name);
          expect(new Set(names).size).toBe(names.length);
          for (const name of names) expect(name).toMatch(TOOL_NAME);
        }
        outcomes.resolved++;
        if (report.agents.some((agent) => agent.tools.some((t) => t.granted !== undefined)))
          outcomes.granted++;
      }),
      { numRuns: 300 },
    );
    // The generator reaches both sides often enough for the property to mean something.
    expect(outcomes.resolved).toBeGreaterThan(30);
    expect(outcomes.failed).toBeGreaterThan(30);
    expect(outcomes.granted).toBeGreaterThan(5);
  });
});
