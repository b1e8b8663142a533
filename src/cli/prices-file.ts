import { readFileSync } from 'node:fs';
import { WorkflowError } from '../errors/index.js';
import { errorMessage } from '../errors/error-message.js';
import { checkPrices, type ModelPrices } from '../models/price.js';

/**
 * The prices of a `--prices` file: a JSON object of `{ inputPerMTok, outputPerMTok, ... }` by
 * model (see `ModelPrices`).
 * @throws {WorkflowError} `cli-option-invalid` naming the file and what is wrong with it
 */
export function readPrices(file: string): ModelPrices | undefined {
  const invalid = (why: string) =>
    new WorkflowError(
      'cli-option-invalid',
      `june: --prices ${file}: ${why}; give a JSON object of prices in USD per million tokens, such as {"openai:gpt-5-mini": {"inputPerMTok": 0.25, "outputPerMTok": 2}}.`,
    );
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw invalid(
      `cannot read it (${(error as NodeJS.ErrnoException).code ?? errorMessage(error)})`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(`it is not JSON (${errorMessage(error)})`);
  }
  try {
    return checkPrices(value);
  } catch (error) {
    throw invalid(
      errorMessage(error).replace(/^june: run\(\)'s prices (.*?); give .*$/s, 'its prices $1'),
    );
  }
}
