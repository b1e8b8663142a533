import { JsonView } from './json-view.js';

type Part = {
  type?: string;
  text?: string;
  toolName?: string;
  toolCallId?: string;
  input?: unknown;
  output?: unknown;
  approvalId?: string;
  approved?: boolean;
  reason?: string;
};
type Message = { role?: string; content?: string | Part[] };

/** The messages a step added to its agent's conversation (AI SDK `ModelMessage`s), one card each. */
export function MessagesView({ messages }: { messages: unknown[] }) {
  if (messages.length === 0) return <p class="muted">No messages.</p>;
  return (
    <ol class="messages">
      {(messages as Message[]).map((message, index) => (
        <li key={index} class={`message message-${message.role ?? 'unknown'}`}>
          <div class="message-role">{message.role ?? 'message'}</div>
          {typeof message.content === 'string' ? (
            <pre class="text">{message.content}</pre>
          ) : Array.isArray(message.content) ? (
            message.content.map((part, at) => <MessagePart key={at} part={part} />)
          ) : (
            <JsonView value={message} />
          )}
        </li>
      ))}
    </ol>
  );
}

function MessagePart({ part }: { part: Part }) {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return <pre class={`text part-${part.type}`}>{part.text}</pre>;
    case 'tool-call':
      return (
        <div class="part">
          <div class="part-title">
            calls <b>{part.toolName}</b> <span class="mono muted">{part.toolCallId}</span>
          </div>
          <JsonView value={part.input} />
        </div>
      );
    case 'tool-result': {
      const output = part.output as { type?: string; value?: unknown } | undefined;
      return (
        <div class="part">
          <div class="part-title">
            result of <b>{part.toolName}</b> <span class="mono muted">{part.toolCallId}</span>
          </div>
          <JsonView value={output && 'value' in output ? output.value : output} />
        </div>
      );
    }
    case 'tool-approval-request':
      return (
        <div class="part part-title">
          asks for approval of <span class="mono">{part.toolCallId}</span>{' '}
          <span class="mono muted">({part.approvalId})</span>
        </div>
      );
    case 'tool-approval-response':
      return (
        <div class="part part-title">
          approval {part.approved ? 'granted' : 'denied'}{' '}
          <span class="mono muted">({part.approvalId})</span>
          {part.reason ? `: ${part.reason}` : ''}
        </div>
      );
    default:
      return (
        <div class="part">
          <div class="part-title">{part.type ?? 'part'}</div>
          <JsonView value={part} />
        </div>
      );
  }
}
