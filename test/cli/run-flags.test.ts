// `june run`'s flags are written once (src/host/run-flags.ts): commander's command, the
// options type and a stopped run's resume all come from that table.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { printedResumeCommand } from '../../src/cli/resume-flags.js';
import { addRunCommand, addRunFlags } from '../../src/cli/run-program.js';
import {
  flagName,
  resumeFlagsSchema,
  resumeFlagValues,
  resumeFlagWords,
  runFlags,
  type RunFlag,
  type RunFlagValues,
} from '../../src/host/run-flags.js';

const table = runFlags as readonly RunFlag[];

/** What `june run` parses from `args` (the flags only), without running anything. */
function parsed(args: string[]): RunFlagValues {
  const command = addRunFlags(
    new Command('run').exitOverride().configureOutput({ writeErr: () => {} }),
  );
  command.parse(args, { from: 'user' });
  return command.opts();
}

describe("june run's flag table", () => {
  it("drives commander: every flag, in the table's order, under the table's key, and no other", () => {
    const program = new Command('june');
    addRunCommand(program, { stdout: process.stdout, stderr: process.stderr } as never, () => {});
    const run = program.commands.find((command) => command.name() === 'run')!;
    expect(run.options.map((option) => option.flags)).toEqual(table.map((flag) => flag.flags));
    expect(run.options.map((option) => option.attributeName())).toEqual(
      table.map((flag) => flag.key),
    );
    const help = run.helpInformation();
    for (const flag of table) expect(help).toContain(flag.flags);
  });

  it('parses each kind: a switch, a negated switch, a value, repeated values, a choice and its default', () => {
    expect(parsed([])).toEqual({ approve: 'ask', redactEnv: [], redactPattern: [], stream: true });
    expect(
      parsed([
        '--strict',
        '--no-stream',
        '--script',
        's.json',
        '--redact-env',
        'A',
        '--redact-env',
        'B',
        '--approve',
        'none',
      ]),
    ).toMatchObject({
      strict: true,
      stream: false,
      script: 's.json',
      redactEnv: ['A', 'B'],
      approve: 'none',
    });
    expect(() => parsed(['--approve', 'maybe'])).toThrow(/maybe/);
  });

  it('carries to a resume exactly the flags marked so, and the resume command parses back to them', () => {
    const options = parsed([
      '--props',
      '{"a":1}',
      '--script',
      'flow.script.json',
      '--approve',
      'all',
      '--trace',
      'out/trace.json',
      '--json',
      '--no-stream',
      '--replay',
      'r1',
      '--strict',
      '--prices',
      'prices.json',
      '--secret-props',
      '@secrets.json',
      '--redact-env',
      'TOKEN',
      '--redact-pattern',
      'sk-[a-z]+',
      '--otel',
      '--otel-record-inputs',
      '--otel-record-outputs',
    ]);
    const carried = resumeFlagValues(options);
    expect(Object.keys(carried).sort()).toEqual(
      table
        .filter((flag) => flag.resume !== undefined)
        .map((flag) => flag.key)
        .sort(),
    );
    expect(carried).toEqual({
      script: 'flow.script.json',
      trace: 'out/trace.json',
      stream: false,
      strict: true,
      prices: 'prices.json',
      secretProps: '@secrets.json',
      redactEnv: ['TOKEN'],
      redactPattern: ['sk-[a-z]+'],
      otel: true,
      otelRecordInputs: true,
      otelRecordOutputs: true,
    });
    expect(resumeFlagsSchema.parse(carried)).toEqual(carried);
    const words = resumeFlagWords(carried).flatMap(([flag, value]) =>
      value === undefined ? [flag] : [flag, value],
    );
    expect(resumeFlagValues(parsed(words))).toEqual(carried);
    // the line printed for a person: the same flags, the approve mode, then --resume
    expect(printedResumeCommand('flow.tsx', 'r2', options)).toBe(
      `june run flow.tsx ${words.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word}'`)).join(' ')} --approve all --resume r2`,
    );
  });

  it('keeps file paths as the caller says, and never a secret given inline', () => {
    const options = parsed(['--script', 's.json', '--secret-props', '{"token":"t"}']);
    expect(resumeFlagValues(options, (file) => `/abs/${file}`)).toEqual({
      script: '/abs/s.json',
    });
    expect(
      resumeFlagWords({ secretProps: '@s.json', trace: 't.json' }, (file) => `/abs/${file}`),
    ).toEqual([
      ['--trace', '/abs/t.json'],
      ['--secret-props', '@/abs/s.json'],
    ]);
  });

  it('refuses a recorded resume flag that is not in the table or has a value it may not have', () => {
    expect(resumeFlagsSchema.safeParse({ approve: 'all' }).success).toBe(false);
    expect(resumeFlagsSchema.safeParse({ strict: false }).success).toBe(false);
    expect(resumeFlagsSchema.safeParse({ redactEnv: ['NOT A NAME'] }).success).toBe(false);
    expect(resumeFlagsSchema.safeParse({ secretProps: '{"inline":1}' }).success).toBe(false);
    expect(resumeFlagsSchema.safeParse({ stream: false, otel: true }).success).toBe(true);
  });

  it('names each flag by its long form', () => {
    expect(table.map(flagName)).toContain('--no-stream');
    expect(new Set(table.map(flagName)).size).toBe(table.length);
  });
});
