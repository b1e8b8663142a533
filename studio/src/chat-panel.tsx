import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, type UIMessage } from 'ai';
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { WorkflowEntry } from '../../src/workflows/workbench-api.js';
import { pageToken } from './approvals-api.js';
import { noScriptHint, proposedScript } from './proposed-script.js';
import { errorText } from './workbench-api.js';

/** Sends again once every approval of the last message has an answer (as the web example does). */
function approvalsAnswered({ messages }: { messages: UIMessage[] }): boolean {
  const parts = (messages.at(-1)?.parts ?? []) as Array<{ state?: string }>;
  return (
    parts.some((part) => part.state === 'approval-responded') &&
    !parts.some((part) => part.state === 'approval-requested')
  );
}

type ToolPart = {
  type: string;
  state: string;
  input?: unknown;
  output?: unknown;
  approval?: { id: string };
};

/**
 * Chats with a workflow that takes messages, over `june/web`'s chat handler at
 * `api/workflows/<id>/chat` (`useChat`, as a web app would): turns, tool calls with their
 * approvals answered in the conversation, and a reload that reconnects to the running turn
 * (the chat id and messages are kept in the tab's session storage). The model answers from
 * the script file given (a path of the project), or from the configured provider.
 */
export function ChatPanel({ workflow }: { workflow: WorkflowEntry }) {
  const { id } = workflow;
  const key = `june-chat:${id}`;
  const { script, setScript, chatId } = useChatSession(id, proposedScript(workflow, 'chat'));
  const transport = useMemo(() => chatTransport(id, script), [id, script]);
  const saved = JSON.parse(sessionStorage.getItem(`${key}:messages`) ?? '[]') as UIMessage[];
  const { messages, sendMessage, addToolApprovalResponse, status, error } = useChat({
    id: chatId,
    messages: saved,
    resume: saved.length > 0,
    transport,
    sendAutomaticallyWhen: approvalsAnswered,
  });
  useEffect(
    () => sessionStorage.setItem(`${key}:messages`, JSON.stringify(messages)),
    [key, messages],
  );
  const [text, setText] = useState('');
  const send = (event: Event) => {
    event.preventDefault();
    if (!text.trim()) return;
    void sendMessage({ text });
    setText('');
  };
  return (
    <section class="wb-panel wb-chat" data-testid="chat">
      <h2 class="wb-title">Chat</h2>
      <ScriptField workflow={workflow} script={script} onScript={setScript} />
      <Messages messages={messages} answer={addToolApprovalResponse} />
      {error && (
        <p class="wb-error" role="alert" data-testid="chat-error">
          {errorText(error.message)}
        </p>
      )}
      <form class="wb-send" onSubmit={send}>
        <input
          class="wb-input"
          aria-label="Message"
          placeholder="Message"
          value={text}
          onInput={(event) => setText(event.currentTarget.value)}
        />
        <button class="wb-button" type="submit" disabled={status === 'streaming'}>
          Send
        </button>
        <span class="wb-note" data-testid="chat-status">
          {status}
        </span>
      </form>
    </section>
  );
}

/** The chat's script file, and what answers when it is empty. */
function ScriptField(props: {
  workflow: WorkflowEntry;
  script: string;
  onScript(script: string): void;
}) {
  const { script, onScript } = props;
  return (
    <>
      <label class="wb-prop">
        <span>Script file</span>
        <input
          class="wb-input"
          aria-label="Chat script file"
          placeholder="empty: the configured provider"
          value={script}
          onInput={(event) => onScript(event.currentTarget.value)}
        />
      </label>
      {!script.trim() && (
        <p class="wb-note" data-testid="no-script">
          {noScriptHint(props.workflow, 'chat')}
        </p>
      )}
    </>
  );
}

/** A tool part's state (the AI SDK's UI message states) in words. */
const STATE_WORDS: Record<string, string> = {
  'input-streaming': 'being written',
  'input-available': 'running',
  'approval-requested': 'waits for your approval',
  'approval-responded': 'answered',
  'output-available': 'done',
  'output-error': 'failed',
  'output-denied': 'denied',
};

function ToolCall(props: { part: ToolPart; answer(approved: boolean): void }) {
  const { part } = props;
  return (
    <div class="wb-tool" data-testid="chat-tool" data-state={part.state}>
      <code>
        {part.type.slice(5)} {JSON.stringify(part.input)}
      </code>{' '}
      <em>{STATE_WORDS[part.state] ?? part.state}</em>
      {part.state === 'approval-requested' && (
        <span class="wb-approval">
          <button class="wb-button" type="button" onClick={() => props.answer(true)}>
            Approve
          </button>
          <button class="wb-button wb-quiet" type="button" onClick={() => props.answer(false)}>
            Deny
          </button>
        </span>
      )}
      {part.state === 'output-available' && <pre>{JSON.stringify(part.output)}</pre>}
    </div>
  );
}

/** The conversation: text, and tool calls with Approve and Deny while they wait. */
function Messages(props: {
  messages: UIMessage[];
  answer(response: { id: string; approved: boolean; reason?: string }): unknown;
}) {
  return (
    <div class="wb-messages" data-testid="chat-messages">
      {props.messages.map((message) => (
        <div key={message.id} class={`wb-message wb-${message.role}`} data-role={message.role}>
          {message.parts.map((part, index) => {
            if (part.type === 'text') return <p key={index}>{part.text}</p>;
            if (!part.type.startsWith('tool-')) return null;
            const call = part as unknown as ToolPart;
            return (
              <ToolCall
                key={index}
                part={call}
                answer={(approved) =>
                  void props.answer({
                    id: call.approval!.id,
                    approved,
                    ...(approved ? {} : { reason: 'denied in Studio' }),
                  })
                }
              />
            );
          })}
        </div>
      ))}
    </div>
  );
}

/**
 * `useChat`'s transport to the workflow's chat route, with the page's token and the script
 * file in the query (none: the configured provider); reconnects at `<route>/<chatId>/stream`.
 */
function chatTransport(id: string, script: string): DefaultChatTransport<UIMessage> {
  const token = pageToken();
  const query = script.trim() ? `?script=${encodeURIComponent(script.trim())}` : '';
  const route = `api/workflows/${encodeURIComponent(id)}/chat`;
  return new DefaultChatTransport({
    api: `${route}${query}`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    prepareReconnectToStreamRequest: ({ id: chat }) => ({
      api: `${route}/${encodeURIComponent(chat)}/stream${query}`,
    }),
  });
}

/**
 * The chat's id and script file, kept in the tab's session storage (so a reloaded page
 * continues the same chat with the same script); a new chat starts from `proposed` (a script
 * file that exists next to the workflow), else the configured provider.
 */
function useChatSession(id: string, proposed: string | undefined) {
  const key = `june-chat:${id}`;
  const [script, setScriptState] = useState(
    () => sessionStorage.getItem(`${key}:script`) ?? proposed ?? '',
  );
  const [chatId] = useState(() => {
    const made = sessionStorage.getItem(`${key}:id`) ?? `chat-${crypto.randomUUID()}`;
    sessionStorage.setItem(`${key}:id`, made);
    return made;
  });
  const setScript = (value: string) => {
    sessionStorage.setItem(`${key}:script`, value);
    setScriptState(value);
  };
  return { script, setScript, chatId };
}
