import { traceWriter } from '../events/trace-writer.js';
import { fileJournalStore } from '../journal/index.js';
import { scriptedModel } from '../testing/index.js';
import { chatHandler, type ChatHandler } from '../web/chat-handler.js';
import { modelChoiceFlags } from './model-choice-flags.js';
import { catalogWorkflow, type WorkbenchPlaces } from './start-workflow-run.js';
import { StudioRequestError } from './studio-request-error.js';

/**
 * The chat panel's server: `POST /api/workflows/<id>/chat` (a `useChat` request) and
 * `GET /api/workflows/<id>/chat/<chatId>/stream` (its reconnect), answered by `june/web`'s
 * `chatHandler` over the workflow, as a web app's would be: the workflow gets the
 * conversation as its `chat` prop (`<ChatTurns>`), approvals are answered in the
 * conversation, and a reloaded page picks its run up again. Runs keep their journals in
 * Studio's runs folder and write their traces there, so each conversation is a run in the
 * list.
 *
 * How the model answers comes with the request's URL, as the start form picks it:
 * `?script=<path of a script file of the project>`, or none for the provider the workflow
 * configures (its environment must be set). One handler is kept per workflow and script.
 */
export class WorkbenchChat {
  readonly #places: WorkbenchPlaces;
  readonly #handlers = new Map<string, Promise<ChatHandler>>();

  constructor(places: WorkbenchPlaces) {
    this.#places = places;
  }

  /**
   * Answers one chat request for the workflow `id`.
   * @throws {StudioRequestError} `studio-workflow-unknown` (404); `studio-request-invalid` (400)
   *   for a workflow that takes no messages; `studio-model-invalid` (400) for a script it cannot
   *   use or a provider whose environment is not set.
   */
  async answer(id: string, request: Request): Promise<Response> {
    const script = new URL(request.url).searchParams.get('script') ?? undefined;
    const key = `${id}\n${script ?? ''}`;
    let handler = this.#handlers.get(key);
    if (!handler) {
      handler = this.#handler(id, script);
      this.#handlers.set(key, handler);
      handler.catch(() => this.#handlers.delete(key));
    }
    return (await handler)(request);
  }

  async #handler(id: string, script: string | undefined): Promise<ChatHandler> {
    const workflow = await catalogWorkflow(this.#places.catalog, id);
    if (!workflow.entry.takesMessages)
      throw new StudioRequestError(
        'studio-request-invalid',
        `june: ${id} takes no chat messages; chat with a workflow whose root component reads the conversation (a \`chat\` prop passed to <ChatTurns>).`,
        400,
      );
    const choice = script === undefined ? { kind: 'provider' } : { kind: 'script', path: script };
    const flags = await modelChoiceFlags(choice, {
      root: this.#places.catalog.root,
      runsDir: this.#places.runsDir,
      ...(this.#places.env ? { env: this.#places.env } : {}),
    });
    const path = flags[0]?.replace(/^--script=/, '');
    const model = path ? scriptedModel(path) : undefined;
    return chatHandler({
      workflow: (await workflow.load()) as never,
      journal: fileJournalStore({ dir: this.#places.runsDir }),
      runOptions: { workflow: id, ...(model ? { model } : {}) },
      runConsumers: () => [traceWriter({ dir: this.#places.runsDir })],
    });
  }
}
