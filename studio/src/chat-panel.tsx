import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, type UIMessage } from 'ai';
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { WorkflowEntry } from '../../src/studio/workbench-api.js';
import { pageToken } from './approvals-api.js';

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
export function ChatPanel(props: { workflow: WorkflowEntry }) {
  const id = props.workflow.id;
  const key = `june-chat:${id}`;
  const [script, setScript] = useState(
    () => sessionStorage.getItem(`${key}:script`) ?? id.replace(/\.[cm]?[jt]sx?$/, '.chat.json'),
  );
  const [chatId] = useState(() => {
    const kept = sessionStorage.getItem(`${key}:id`);
    const made = kept ?? `chat-${crypto.randomUUID()}`;
    sessionStorage.setItem(`${key}:id`, made);
    return made;
  });
  const transport = useMemo(() => {
    const token = pageToken();
    const query = script.trim() ? `?script=${encodeURIComponent(script.trim())}` : '';
    return new DefaultChatTransport({
      api: `api/workflows/${encodeURIComponent(id)}/chat${query}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      prepareReconnectToStreamRequest: ({ id: chat }) => ({
        api: `api/workflows/${encodeURIComponent(id)}/chat/${encodeURIComponent(chat)}/stream${query}`,
      }),
    });
  }, [id, script]);
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
    sessionStorage.setItem(`${key}:script`, script);
    void sendMessage({ text });
    setText('');
  };
  return (
    <section class="wb-panel wb-chat" data-testid="chat">
      <h2 class="wb-title">Chat</h2>
      <label class="wb-prop">
        <span>Script file</span>
        <input
          class="wb-input"
          aria-label="Chat script file"
          placeholder="empty: the configured provider"
          value={script}
          onInput={(event) => setScript(event.currentTarget.value)}
        />
      </label>
      <div class="wb-messages" data-testid="chat-messages">
        {messages.map((message) => (
          <div key={message.id} class={`wb-message wb-${message.role}`} data-role={message.role}>
            {message.parts.map((part, index) =>
              part.type === 'text' ? (
                <p key={index}>{part.text}</p>
              ) : part.type.startsWith('tool-') ? (
                <ToolCall
                  key={index}
                  part={part as unknown as ToolPart}
                  answer={(approved) =>
                    void addToolApprovalResponse({
                      id: (part as unknown as ToolPart).approval!.id,
                      approved,
                      ...(approved ? {} : { reason: 'denied in Studio' }),
                    })
                  }
                />
              ) : null,
            )}
          </div>
        ))}
      </div>
      {error && (
        <p class="wb-error" role="alert">
          {error.message}
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

function ToolCall(props: { part: ToolPart; answer(approved: boolean): void }) {
  const { part } = props;
  return (
    <div class="wb-tool" data-testid="chat-tool" data-state={part.state}>
      <code>
        {part.type.slice(5)} {JSON.stringify(part.input)}
      </code>{' '}
      <em>{part.state}</em>
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
