import { localRunHost } from '../host/local-run-host.js';
import type { RunHost } from '../host/run-host.js';
import { scriptedModel } from '../testing/index.js';
import type { Component } from '../elements/element.js';
import { chatHandler, type ChatHandler } from '../web/chat-handler.js';
import { DEFAULT_CHAT_LIMITS, readLimitedJson } from '../web/chat-limits.js';
import { modelChoiceFlags } from './model-choice-flags.js';
import { catalogWorkflow, type WorkbenchPlaces } from './start-workflow-run.js';
import type { WorkbenchWorkflow } from '../workflows/workbench-catalog.js';
import { StudioRequestError } from '../host/studio-request-error.js';

/** How many chats a workbench keeps a handler for (each its own script cursor): those used last. */
export const WORKBENCH_CHATS_KEPT = 100;

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
 * configures (its environment must be set). Each chat has a handler of its own, made at its
 * first request: a script's turns are read from the start for every chat, and a chat begun
 * after a save runs the workflow as saved (the file is loaded again once the catalog shows
 * the new load, `loadedAt`), while a chat begun before keeps the code it began with. The
 * handlers of the {@link WORKBENCH_CHATS_KEPT} chats used last are kept; an older chat's next
 * request gets a new one (its script read from the start again).
 */
export class WorkbenchChat {
  readonly #places: WorkbenchPlaces;
  /** Each chat's handler and host, by workflow, script and chat id: the code and script cursor it began with. */
  readonly #chats = new Map<string, Promise<{ handler: ChatHandler; host: RunHost }>>();
  /** The workflows loaded for chats, by id: the newest load only. */
  readonly #loads = new Map<string, { version: string; component: Promise<Component> }>();

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
    const key = JSON.stringify([id, script ?? '', await chatIdOf(request)]);
    const workflow = await catalogWorkflow(this.#places.catalog, id);
    let chat = this.#chats.get(key);
    if (!chat && request.method === 'GET') {
      await this.#modelPath(workflow, script); // a request it would refuse is refused here too
      return new Response(null, { status: 204 }); // no chat of this id: nothing to reconnect to
    }
    if (!chat) {
      chat = this.#handler(workflow, script);
      chat.catch(() => this.#chats.delete(key));
    }
    this.#chats.delete(key); // the chat used last goes last: the least recently used go first
    this.#chats.set(key, chat);
    for (const [old, evicted] of this.#chats) {
      if (this.#chats.size <= WORKBENCH_CHATS_KEPT) break;
      this.#chats.delete(old);
      // its runs stop, their journals kept: the chat's next request takes them up again
      void evicted.then(({ host }) => host.close()).catch(() => {});
    }
    return (await chat).handler(request);
  }

  /** Closes every chat's host: their runs stop, their journals kept in the runs folder. */
  async close(): Promise<void> {
    const chats = [...this.#chats.values()];
    this.#chats.clear();
    await Promise.all(chats.map((chat) => chat.then(({ host }) => host.close()).catch(() => {})));
  }

  /**
   * A chat's handler, on a host of its own that runs in this process and keeps its runs in
   * Studio's runs folder (journals, traces, answers files: the runs page lists and answers
   * them too), with the chat's model: the script's turns go on from message to message.
   */
  async #handler(
    workflow: WorkbenchWorkflow,
    script: string | undefined,
  ): Promise<{ handler: ChatHandler; host: RunHost }> {
    const path = await this.#modelPath(workflow, script);
    const model = path ? scriptedModel(path) : undefined;
    const { id } = workflow.entry;
    const host = await localRunHost({
      dir: this.#places.runsDir,
      workflows: { [id]: await this.#component(workflow) },
      ...(model ? { runOptions: { model } } : {}),
    });
    return { handler: chatHandler({ host, workflow: id }), host };
  }

  /**
   * The script file a chat's model answers from (absolute), or none for the provider, once the
   * workflow is found to take messages and the choice to be usable.
   */
  async #modelPath(
    workflow: WorkbenchWorkflow,
    script: string | undefined,
  ): Promise<string | undefined> {
    const { id } = workflow.entry;
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
    return flags[0]?.replace(/^--script=/, '');
  }

  /** The workflow's component as the catalog last loaded its file, loaded once per load. */
  #component(workflow: WorkbenchWorkflow): Promise<Component> {
    const { id, loadedAt } = workflow.entry;
    const known = this.#loads.get(id);
    if (known?.version === loadedAt) return known.component;
    const component = workflow.load();
    this.#loads.set(id, { version: loadedAt, component });
    component.catch(() => {
      if (this.#loads.get(id)?.component === component) this.#loads.delete(id);
    });
    return component;
  }
}

/**
 * The chat a request is for: the `id` of a `POST`'s body, the `<chatId>` of a reconnect's
 * path; `''` when it has none (the chat handler then says what is wrong with the request).
 */
async function chatIdOf(request: Request): Promise<string> {
  if (request.method === 'GET')
    return /\/chat\/([^/]+)\/stream$/.exec(new URL(request.url).pathname)?.[1] ?? '';
  try {
    const body = await readLimitedJson(request.clone(), DEFAULT_CHAT_LIMITS.maxRequestBytes);
    const id = (body as { id?: unknown } | undefined)?.id;
    return typeof id === 'string' ? id : '';
  } catch {
    return '';
  }
}
