/**
 * Every `code` a {@link JuneError} raised by June can have, grouped by where it comes from.
 * Codes are stable across releases: match on them, never on a message. The union
 * {@link JuneErrorCode} is made from this list, so a code June raises is always in it.
 *
 * @example
 * ```ts
 * juneErrorCodes.includes('capability-collision'); // true
 * ```
 */
export const juneErrorCodes = [
  // the tree: elements, JSX, components and agents (blame: workflow)
  'agent-child-invalid',
  'agent-model-missing',
  'bundle-content-invalid',
  'bundle-cycle',
  'capability-collision',
  'capability-in-component',
  'capability-outside-agent',
  'catch-fallback-invalid',
  'catch-retries-invalid',
  'define-agent-invalid',
  'define-agent-prompt-invalid',
  'element-type-invalid',
  'inherit-capabilities-invalid',
  'inherit-duplicate-name',
  'inherit-outside-agent',
  'inherit-unknown-name',
  'inspect-composite-unknown',
  'invalid-bash-option',
  'jsx-runtime-react',
  'jsx-setup-invalid',
  'mcp-server-invalid',
  'model-invalid',
  'model-spec-unsupported',
  'namespace-name-invalid',
  'step-children-not-function',
  'step-id-duplicate',
  'step-id-invalid',
  'step-outside-agent',
  'step-prompt-failed',
  'step-prompt-invalid',
  'text-outside-step',
  'tool-name-invalid',
  'tool-output-invalid',
  'tool-source-invalid',
  'tool-value-invalid',
  'wrapper-content-invalid',
  // run options, approvals and the run itself
  'approval-answer-invalid',
  'approval-policy-failed',
  'approval-policy-invalid',
  'approval-source-invalid',
  'approval-unknown',
  'composite-tool-failed',
  'run-abort-grace-invalid',
  'run-aborted',
  'run-output-invalid',
  'run-props-invalid',
  'run-replay-invalid',
  'run-resume-invalid',
  'run-strict-failed',
  'run-workflow-invalid',
  'sdk-telemetry-unredactable',
  // the model's behaviour (blame: model)
  'step-limit-reached',
  'step-output-invalid',
  // outside the workflow: providers, servers, processes (blame: system)
  'bash-spawn-failed',
  'bash-unsupported-platform',
  'capability-connect-failed',
  'mcp-connect-failed',
  'mcp-call-interrupted',
  'mcp-session-lost',
  'mcp-tool-failed',
  'model-call-failed',
  'model-file-unsupported',
  'openai-base-url-invalid',
  'openai-not-configured',
  'sdk-telemetry-unavailable',
  // durable runs: journals
  'journal-corrupt',
  'journal-exists',
  'journal-mismatch',
  'journal-missing',
  'journal-run-id-invalid',
  'journal-store-invalid',
  'journal-unreadable',
  'journal-version-unsupported',
  'journal-write-failed',
  'model-answer-unreadable',
  'run-owned',
  // scripted models (june/testing)
  'script-invalid',
  'script-step-missing',
  'script-tool-unavailable',
  'script-turns-exhausted',
  'script-turns-unused',
  'script-unreadable',
  'scripted-call-outside-step',
  'scripted-model-error',
  // evals (june/evals): datasets, scorers' expectations, result files
  'eval-dataset-invalid',
  'eval-dataset-unreadable',
  'eval-expectation-invalid',
  'eval-results-invalid',
  'eval-results-unreadable',
  // the june command and Studio
  'cli-init-conflict',
  'cli-option-invalid',
  'cli-otel-unavailable',
  'cli-props-invalid',
  'cli-workflow-missing',
  'run-folder-unsafe',
  'studio-approval-unknown',
  'studio-host-invalid',
  'studio-listen-failed',
  'studio-model-invalid',
  'studio-port-invalid',
  'studio-props-invalid',
  'studio-request-invalid',
  'studio-request-refused',
  'studio-run-folder-unsafe',
  'studio-run-missing',
  'studio-run-owned',
  'studio-run-start-failed',
  'studio-runs-busy',
  'studio-ui-missing',
  'studio-workflow-unknown',
  'tool-try-unknown',
  'tool-try-unsupported',
  'workflow-default-invalid',
  'workflow-default-missing',
  'workflow-failed',
  'workflow-load-failed',
  // web apps (june/web): chat requests refused before anything runs
  'approval-answered',
  'chat-handler-option-invalid',
  'chat-request-invalid',
  'chat-request-too-large',
  'chat-run-busy',
  'chat-run-foreign',
  'chat-run-missing',
  // runs over a database (june/dbos, june worker, --database)
  'database-auth-failed',
  'database-missing',
  'database-unreachable',
  'database-url-invalid',
  'dbos-executor-held',
  'dbos-missing',
  'dbos-props-secret',
  'dbos-run-exists',
  'dbos-run-finished',
  'dbos-run-unknown',
  'dbos-secret-props-missing',
  'dbos-worker-workflow-missing',
  'dbos-workflow-missing',
] as const;

/**
 * The `code` of an error June raises: one of {@link juneErrorCodes}, kebab-case, stable
 * across releases.
 *
 * @example
 * ```ts
 * const usage: ReadonlySet<JuneErrorCode> = new Set(['cli-option-invalid', 'cli-props-invalid']);
 * ```
 */
export type JuneErrorCode = (typeof juneErrorCodes)[number];
