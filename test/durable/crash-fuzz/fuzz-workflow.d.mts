// Types of fuzz-workflow.mjs (plain JavaScript, so a child process runs it without a build step).
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ToolSet } from 'ai';
import type { JuneElement } from 'june';

export function modelKey(
  step: string,
  prompt: Array<{ role: string; content: Array<{ text?: string }> }>,
): { key: string; turn: number; user: string };
export function fuzzModel(modelLog: string, attempt: number): LanguageModelV3;
export function fuzzTools(effects: string, attempt: number): ToolSet;
export function fuzzWorkflow(model: LanguageModelV3, tools: ToolSet): JuneElement;
export function approvalKey(tool: string, input: unknown): string;
