// @ts-check
// Which way imports point between June's source folders. A file may import its own folder and
// any folder of a lower layer; within a layer only the pairs listed in `peers`. The table is
// checked for cycles when the linter loads it, so the folders can never import in a circle.
// docs/architecture.md explains each layer.

/** @type {import('./layered-imports-rule.js').LayerTable} */
export const layers = {
  layers: [
    // What every other folder may use: errors, plain JSON, redaction of secrets.
    { name: 'foundation', folders: ['redaction', 'json', 'errors'] },
    // The tree: frozen element data, the JSX factory, notation for messages.
    { name: 'elements', folders: ['elements'] },
    // Who can do what: capability declarations and their pure resolution; approval requests
    // and policies; model helpers (usage, stream pacing).
    { name: 'capabilities', folders: ['capabilities', 'approvals', 'models'] },
    // What a workflow is written with: the built-in components, tools, tool sources, MCP
    // servers, the bundled providers.
    { name: 'components', folders: ['components', 'tools', 'resources', 'mcp', 'sdk'] },
    // What a run is made of below the tree walk: one step's model rounds, the events, the trace,
    // the durable engine interface, the journal that implements it over its stores, scripted
    // models for offline runs, the OpenTelemetry export of a run's trace.
    {
      name: 'run parts',
      folders: ['steps', 'trace', 'events', 'engine', 'journal', 'testing', 'telemetry'],
    },
    // The tree walk: runWorkflow(), inspect(), child runs, composite tools.
    { name: 'interpreter', folders: ['interpreter'] },
    // The public run(): the interpreter with the durable engine its journal options make.
    { name: 'run', folders: ['run'] },
    // Runs over a database: the DBOS engine, its worker and run client (`june/dbos`).
    { name: 'scale-out', folders: ['dbos'] },
    // Scoring workflows over datasets with an eval runner (`june/evals`): eval tasks that run
    // workflows, scorers that read their traces, comparisons of two eval runs.
    { name: 'evals', folders: ['evals'] },
    // What the entry points share about workflow files: their exported props schema and the
    // check of props against it, the catalog of a project's workflows and the workbench's API
    // shapes (`june dev` and Studio).
    { name: 'workflows', folders: ['workflows'] },
    // Where runs live, below every entry point: the runs folder's protocol (lease, resume
    // seal, answers file, run flags), a database of runs over DBOS's RunClient, the list of
    // runs and the approvals they wait for.
    { name: 'hosts', folders: ['host'] },
    // What users import or start: the package entries (`june`, `june/jsx-runtime`), the CLI,
    // Studio's server and its browser UI, workflows served over MCP (`june serve`).
    {
      name: 'entry points',
      folders: ['index', 'jsx-runtime', 'studio', 'studio-ui', 'cli', 'web', 'serve'],
    },
  ],
  // Imports allowed between folders of one layer: importer -> the folders it may use.
  peers: {
    errors: ['redaction'],
    mcp: ['resources', 'tools'],
    events: ['trace'],
    engine: ['events'],
    journal: ['engine'],
    testing: ['journal'],
    telemetry: ['events', 'trace'],
    cli: ['studio', 'serve'],
    // the served server checks Host and Origin as Studio does (src/studio/studio-access.ts)
    serve: ['studio'],
    studio: ['web'],
    'studio-ui': ['studio'],
  },
  // Imports a lower layer does not excuse.
  forbidden: [
    {
      from: ['interpreter', 'steps'],
      to: ['journal', 'cli'],
      reason:
        'the interpreter depends on the durable engine interface, never on the journal ' +
        'that implements it, nor on the CLI',
    },
    {
      from: ['dbos'],
      to: ['journal'],
      reason:
        'a durable engine builds on the engine interface and the helpers every engine shares ' +
        "(src/engine/: places, call ids, journal-mismatch); the journal is another engine's store",
    },
    {
      from: ['cli'],
      to: ['studio'],
      onlyTo: ['src/studio/index.ts'],
      reason:
        "the CLI's one call into Studio is starting it (src/studio/index.ts); what both need " +
        'about runs is in src/host/, about workflow files in src/workflows/',
    },
    {
      from: ['serve'],
      to: ['studio'],
      onlyTo: ['src/studio/studio-access.ts'],
      reason:
        "a served workflow checks its requests' Host and Origin as Studio does (src/studio/studio-access.ts), and nothing else of Studio",
    },
    {
      from: ['cli', 'studio', 'web', 'serve'],
      to: ['dbos', 'journal'],
      reason:
        'entry points reach runs through a run host (src/host/: openRunHost, RunHost): the ' +
        "durable engines and the journal's stores are the hosts' business",
    },
    {
      from: ['studio-ui'],
      to: ['index', 'cli', 'interpreter', 'steps', 'engine', 'journal', 'testing'],
      reason:
        "Studio's browser UI shows runs it reads through Studio's API (src/studio) and never runs one",
    },
  ],
  // Which folders may import which packages (a package's subpaths, such as `ai/test`, count as
  // the package). The AI SDK's provider specifications (LanguageModelV4, V3, ...) change with
  // every major: they are known only at the model door, models/ (with the bundled providers
  // and the scripted models that implement them), so a new major touches one folder. Names
  // listed under `names` are allowed only in their own folders, whatever else the package's
  // entry allows.
  packages: [
    {
      name: '@ai-sdk/provider',
      folders: ['models', 'sdk', 'testing'],
      reason:
        'provider specifications are known only at the model door (src/models/); elsewhere ' +
        "use June's own shapes (ModelAnswer, the request from modelRequestOf) or the ai package's types",
    },
    {
      name: 'ai',
      folders: [
        'models',
        'capabilities',
        'components',
        'tools',
        'mcp',
        'sdk',
        'steps',
        'engine',
        'events',
        'trace',
        'telemetry',
        'interpreter',
        'dbos',
        'cli',
        'web',
        'evals',
        'workflows',
        // the chat panel's useChat transport (DefaultChatTransport), in the browser
        'studio-ui',
      ],
      names: {
        wrapLanguageModel: ['models'],
        LanguageModelMiddleware: ['models'],
      },
      namesReason:
        'a model is wrapped only at the model door, which takes every specification in and ' +
        'refuses one it cannot run',
      reason:
        'the AI SDK is used where workflows are written and run; the foundation, the tree, ' +
        "approvals, the journal and Studio hold June's own shapes",
    },
    {
      name: '@pydantic/genai-prices',
      folders: ['models'],
      reason:
        'model calls are priced at the model door (src/models/price.ts); elsewhere use ' +
        "June's own shapes (ModelPrice, a node's costUsd, subtreeCost)",
    },
    {
      name: '@ai-sdk/openai',
      folders: ['sdk'],
      reason: 'the OpenAI provider comes in through june/sdk/openai',
    },
    {
      name: '@ai-sdk/mcp',
      folders: ['mcp'],
      reason: 'MCP servers come in through src/mcp/',
    },
    {
      name: '@modelcontextprotocol/sdk',
      folders: ['serve'],
      reason:
        'the MCP SDK is an optional peer dependency, loaded only to serve workflows (src/serve/load-mcp-sdk.ts)',
    },
    {
      name: '@ai-sdk/otel',
      folders: ['telemetry'],
      reason: "the AI SDK's own spans are turned on in src/telemetry/ (an optional package)",
    },
  ],
  // Where files outside src/ belong (path prefix -> folder name in the table above).
  roots: { 'src/': null, 'jsx-runtime/': 'jsx-runtime', 'studio/src/': 'studio-ui' },
};
