import { tool } from 'ai';
import { Output } from 'ai';
import { Agent, defineAgent, Step, Tool } from 'june';
import { scriptedModel } from 'june/testing';
import { z } from 'zod';

const model = scriptedModel({ steps: { s: [{ text: 'x' }] } });
const search = tool({ inputSchema: z.object({ query: z.string() }), execute: async ({ query }) => query });

export const ok = (
  <Agent model={model}>
    <Tool name="search" value={search} />
    <Tool name="research" description="d" input={z.object({ question: z.string() })} output={(r) => r.steps.findings}>
      {({ question }) => (
        <Agent model={model}>
          <Step id="findings" prompt={`Research: ${question.toUpperCase()}`} />
        </Agent>
      )}
    </Tool>
  </Agent>
);

export const bad1 = (
  // @ts-expect-error the input is { question: string }, so `nope` does not exist
  <Tool name="r" input={z.object({ question: z.string() })}>{({ nope }) => null}</Tool>
);
// @ts-expect-error a value tool takes no function child
export const bad2 = <Tool name="r" value={search}>{() => null}</Tool>;
// @ts-expect-error a composite tool needs an input schema
export const bad3 = <Tool name="r">{() => null}</Tool>;

// defineAgent: the input type flows from the schema into prompt; the component takes no props.
export const Researcher = defineAgent({
  name: 'researcher',
  input: z.object({ question: z.string() }),
  model,
  temperature: 0,
  prompt: ({ question }) => `Research: ${question.trim()}`,
  capabilities: () => <Tool name="search" value={search} />,
  output: Output.object({ schema: z.object({ answer: z.string() }) }),
});
export const placed = (
  <Agent model={model}>
    <Researcher />
  </Agent>
);
defineAgent({
  name: 'researcher',
  input: z.object({ question: z.string() }),
  model,
  // @ts-expect-error the input has no `topic`
  prompt: ({ topic }) => `Research: ${topic}`,
});
// @ts-expect-error a defined agent takes no props
export const withProps = <Researcher question="x" />;
