// The generics users lean on, checked by TypeScript (vitest's typecheck mode): what a
// composite tool's body, a step's result function and a defined agent's prompt are given.
import { Output, tool } from 'ai';
import {
  Agent,
  defineAgent,
  Question,
  Step,
  Tool,
  type CompositeToolProps,
  type CompositeToolRunResult,
  type DefinedAgent,
  type JuneNode,
  type StepProps,
  type ToolProps,
} from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expectTypeOf, test } from 'vitest';
import { z } from 'zod';

const model = scriptedModel({ steps: { s: [{ text: 'x' }] } });
const question = z.object({ question: z.string(), depth: z.number().optional() });
const verdict = z.object({ ship: z.boolean(), reasons: z.array(z.string()) });

describe('<Tool>: a composite tool infers its input from the schema', () => {
  test('the body gets the parsed input', () => {
    <Tool name="research" description="d" input={question}>
      {(input) => {
        expectTypeOf(input).toEqualTypeOf<{ question: string; depth?: number | undefined }>();
        return <Agent model={model} />;
      }}
    </Tool>;
  });

  test('output reads the child run: steps by id and usage', () => {
    <Tool
      name="research"
      input={question}
      output={(result) => {
        expectTypeOf(result).toEqualTypeOf<CompositeToolRunResult>();
        expectTypeOf(result.steps).toEqualTypeOf<Readonly<Record<string, unknown>>>();
        return result.steps.findings;
      }}
    >
      {() => null}
    </Tool>;
  });

  test('the props type follows its type argument', () => {
    expectTypeOf<CompositeToolProps<{ id: number }>['children']>()
      .parameter(0)
      .toEqualTypeOf<{ id: number }>();
    expectTypeOf<CompositeToolProps<{ id: number }>['children']>().returns.toEqualTypeOf<
      JuneNode | Promise<JuneNode>
    >();
    expectTypeOf<ToolProps>().toHaveProperty('name').toEqualTypeOf<string>();
  });

  test('a value tool takes an AI SDK tool, and no body', () => {
    const search = tool({
      inputSchema: z.object({ query: z.string() }),
      execute: async ({ query }) => query,
    });
    <Tool name="search" value={search} />;
    // @ts-expect-error a value tool takes no function child
    <Tool name="search" value={search}>{() => null}</Tool>;
    // @ts-expect-error a composite tool's body reads only what its schema declares
    <Tool name="r" input={question}>{({ topic }) => topic}</Tool>;
  });
});

describe("<Step>: the type of a step's result", () => {
  test('with an Output, the result function gets the parsed object', () => {
    <Step id="review" prompt="Review" output={Output.object({ schema: verdict })}>
      {(result) => {
        expectTypeOf(result).toEqualTypeOf<{ ship: boolean; reasons: string[] }>();
        return result.ship ? <Step id="ship" prompt="Ship it" /> : null;
      }}
    </Step>;
  });

  test('with Output.text() it gets a string', () => {
    <Step id="plain" prompt="Say it" output={Output.text()}>
      {(result) => {
        expectTypeOf(result).toEqualTypeOf<string>();
        return null;
      }}
    </Step>;
  });

  test('the props type ties output to children', () => {
    expectTypeOf<StepProps<{ ship: boolean }>['children']>().toEqualTypeOf<
      ((result: { ship: boolean }) => JuneNode | Promise<JuneNode>) | undefined
    >();
    // @ts-expect-error the result has no `merged`
    <Step id="r" prompt="p" output={Output.object({ schema: verdict })}>{(r) => r.merged}</Step>;
  });
});

describe("defineAgent: the input flows from the schema into the prompt", () => {
  test('prompt gets the parsed input; the component takes no props', () => {
    const Researcher = defineAgent({
      name: 'researcher',
      input: question,
      model,
      prompt: (input) => {
        expectTypeOf(input).toEqualTypeOf<{ question: string; depth?: number | undefined }>();
        return `Research: ${input.question}`;
      },
      output: Output.object({ schema: verdict }),
    });
    expectTypeOf(Researcher).toEqualTypeOf<DefinedAgent>();
    expectTypeOf(Researcher).parameter(0).toEqualTypeOf<Record<string, never>>();
  });

  test('a prompt reading a field the schema lacks does not compile', () => {
    defineAgent({
      name: 'researcher',
      input: question,
      model,
      // @ts-expect-error the input has no `topic`
      prompt: ({ topic }) => `Research: ${topic}`,
    });
  });
});

describe('<Question>: onTimeout answers with a value of the answer schema', () => {
  test('a value the schema types is taken; another is a type error', () => {
    <Question name="ask_env" answer={z.enum(['staging', 'prod'])} timeoutMs={1} onTimeout={{ answer: 'staging' }} />;
    // @ts-expect-error 'moon' is not one of the choices
    <Question name="ask_env" answer={z.enum(['staging', 'prod'])} timeoutMs={1} onTimeout={{ answer: 'moon' }} />;
    <Question name="form" answer={z.object({ n: z.number() })} timeoutMs={1} onTimeout={{ answer: { n: 1 } }} />;
  });
});
