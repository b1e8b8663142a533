// Random workflow trees for property tests: tools, bundles, wrappers, fragments, conditions
// and nested agents with grants and steps (fast-check arbitraries, and the trees as JSX).
import { tool, type Tool as AiTool } from 'ai';
import fc from 'fast-check';
import {
  Agent,
  defineCapabilities,
  Inherit,
  Namespace,
  RequireApproval,
  Step,
  Tool,
  type JuneNode,
} from 'june';
import { z } from 'zod';
import { model } from './support.js';

export type Approval = 'unset' | 'false' | 'true' | 'function';
export type Flag = boolean | 'dynamic';

export type Cap =
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

export type Item = Cap | { t: 'agent'; agent: AgentSpec };
export interface AgentSpec {
  items: Item[];
  toolsProp: string[];
}

export const TOOLS: Record<Approval, AiTool<Record<string, never>, string>> = {
  unset: tool({ inputSchema: z.object({}), execute: async () => 'ok' }),
  false: tool({ inputSchema: z.object({}), needsApproval: false, execute: async () => 'ok' }),
  true: tool({ inputSchema: z.object({}), needsApproval: true, execute: async () => 'ok' }),
  function: tool({
    inputSchema: z.object({}),
    needsApproval: async () => true,
    execute: async () => 'ok',
  }),
};
export const FLAG: Record<Approval, Flag> = {
  unset: false,
  false: false,
  true: true,
  function: 'dynamic',
};

export const VALID_NAMESPACE = /^[A-Za-z][A-Za-z0-9-]*$/;
export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

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

export function agentArb(depth: number, outermost: boolean): fc.Arbitrary<AgentSpec> {
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
export type Grants = Map<Cap, string[]>;

export function buildAgent(spec: AgentSpec, ids: { next: number; grants: Grants }): JuneNode {
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
