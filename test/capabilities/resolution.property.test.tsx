// A property test over random trees of tools, bundles, wrappers, fragments, conditions and
// nested agents with grants: inspect() returns exactly the names and approval flags an
// independent model of the rules predicts, or fails with the JuneError it predicts; never
// anything else.
import fc from 'fast-check';
import { inspect, JuneError } from 'june';
import { describe, expect, it } from 'vitest';
import {
  agentArb,
  buildAgent,
  FLAG,
  TOOL_NAME,
  VALID_NAMESPACE,
  type AgentSpec,
  type Cap,
  type Flag,
  type Grants,
} from './random-trees.js';

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
