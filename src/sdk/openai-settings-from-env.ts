import { SystemError } from '../errors/index.js';

/** The base URL of OpenAI's own API, used when `OPENAI_BASE_URL` is not set. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * The API key sent to an OpenAI-compatible server when only `OPENAI_BASE_URL` is set. Local
 * servers (Ollama, vLLM, llama.cpp's server) accept any key unless started with one.
 */
export const OPENAI_PLACEHOLDER_API_KEY = 'june-no-api-key';

/** Where and how to reach an OpenAI-compatible API, as read by {@link openAISettingsFromEnv}. */
export interface OpenAIEnvSettings {
  /** Base URL without a trailing slash, e.g. `"https://api.openai.com/v1"`. */
  baseURL: string;
  /** The key sent as `Authorization: Bearer <apiKey>`. */
  apiKey: string;
}

/**
 * Reads `OPENAI_API_KEY` and `OPENAI_BASE_URL` from `env`. An empty variable counts as unset.
 *
 * - only `OPENAI_API_KEY`: OpenAI's API (`https://api.openai.com/v1`) with that key;
 * - only `OPENAI_BASE_URL`: that server with {@link OPENAI_PLACEHOLDER_API_KEY};
 * - both: that server with that key.
 *
 * @param env the variables to read
 * @default env `process.env`
 * @throws {SystemError} code `openai-not-configured` when neither variable is set
 * @throws {SystemError} code `openai-base-url-invalid` when `OPENAI_BASE_URL` is not an absolute http(s) URL
 *
 * @example
 * ```ts
 * openAISettingsFromEnv({ OPENAI_BASE_URL: 'http://localhost:11434/v1' });
 * // => { baseURL: 'http://localhost:11434/v1', apiKey: 'june-no-api-key' }
 * ```
 */
export function openAISettingsFromEnv(env: NodeJS.ProcessEnv = process.env): OpenAIEnvSettings {
  const apiKey = nonEmpty(env.OPENAI_API_KEY);
  const baseURL = nonEmpty(env.OPENAI_BASE_URL);
  if (apiKey === undefined && baseURL === undefined) {
    throw new SystemError(
      'openai-not-configured',
      'june: no OpenAI endpoint is configured: neither OPENAI_API_KEY nor OPENAI_BASE_URL is set. ' +
        'To use OpenAI, set OPENAI_API_KEY (export OPENAI_API_KEY=sk-...). ' +
        "To use an OpenAI-compatible server such as Ollama, vLLM or llama.cpp's server, set OPENAI_BASE_URL " +
        '(export OPENAI_BASE_URL=http://localhost:11434/v1); a key is then optional. ' +
        'To run offline with a scripted model instead, use `june run <file> --script <script.json>`.',
    );
  }
  if (baseURL !== undefined && !isHttpUrl(baseURL)) {
    throw new SystemError(
      'openai-base-url-invalid',
      `june: OPENAI_BASE_URL is ${JSON.stringify(baseURL)}, which is not an absolute http(s) URL. ` +
        'Set it to the API root of an OpenAI-compatible server, including the version path, ' +
        'e.g. http://localhost:11434/v1 (Ollama) or http://localhost:8000/v1 (vLLM).',
    );
  }
  return {
    baseURL: (baseURL ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, ''),
    apiKey: apiKey ?? OPENAI_PLACEHOLDER_API_KEY,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
