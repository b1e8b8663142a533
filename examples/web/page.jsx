// The example's page: useChat (@ai-sdk/react) on June's chat handler at /api/chat.
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
import { approvalWith } from 'june/web/approval-with';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import './style.css';

// The chat id stays in the address, so a reloaded page reconnects to its running run.
const params = new URLSearchParams(location.search);
const chatId = params.get('chat') ?? `chat-${Math.random().toString(36).slice(2, 10)}`;
if (!params.has('chat')) history.replaceState(null, '', `?chat=${chatId}`);

// The page keeps its messages (the server keeps none): a reloaded page shows them, the
// reconnect replaces the message of a run still running, and the next request sends them all.
const saved = JSON.parse(sessionStorage.getItem(chatId) ?? '[]');

/** Sends once every approval of the last message has an answer (composite calls included). */
function approvalsAnswered({ messages }) {
  const parts = messages.at(-1)?.parts ?? [];
  return (
    parts.some((part) => part.state === 'approval-responded') &&
    !parts.some((part) => part.state === 'approval-requested')
  );
}

// An edited input or an answer instead of the tool goes with the next request, beside the
// answer addToolApprovalResponse keeps in the message (it has no field for them).
const edits = {};
const takeEdits = () => {
  const body = approvalWith({ ...edits });
  for (const id of Object.keys(edits)) delete edits[id];
  return body;
};

function Approval({ part, answer }) {
  const [reason, setReason] = useState('');
  const [text, setText] = useState(JSON.stringify(part.input));
  const id = part.approval.id;
  const withEdit = (edit, approved) => {
    edits[id] = edit;
    answer({ id, approved });
  };
  let edited;
  try {
    edited = JSON.parse(text);
  } catch {
    edited = undefined;
  }
  return (
    <div className="approval">
      <button onClick={() => answer({ id, approved: true })}>Approve</button>
      <input placeholder="reason" value={reason} onChange={(e) => setReason(e.target.value)} />
      <button onClick={() => answer({ id, approved: false, reason })}>Deny</button>
      <input value={text} onChange={(e) => setText(e.target.value)} />
      <button disabled={edited === undefined} onClick={() => withEdit({ input: edited }, true)}>
        Run with this input
      </button>
      <button onClick={() => withEdit({ output: edited ?? text }, false)}>Answer instead</button>
    </div>
  );
}

function Part({ part, answer }) {
  if (part.type === 'text') return <p className="text">{part.text}</p>;
  if (part.type === 'data-june-step')
    return <p className="step">{`step ${part.data.step}: ${part.data.status}`}</p>;
  if (!part.type.startsWith('tool-')) return null;
  return (
    <div className="tool" data-state={part.state}>
      <code>{`${part.type.slice(5)} ${JSON.stringify(part.input)}`}</code> <em>{part.state}</em>
      {part.state === 'approval-requested' && <Approval part={part} answer={answer} />}
      {part.state === 'output-available' && <pre>{JSON.stringify(part.output)}</pre>}
    </div>
  );
}

function App() {
  const [input, setInput] = useState('');
  const { messages, sendMessage, addToolApprovalResponse, status } = useChat({
    id: chatId,
    messages: saved,
    resume: true,
    transport: new DefaultChatTransport({ api: '/api/chat', body: takeEdits }),
    sendAutomaticallyWhen: approvalsAnswered,
  });
  useEffect(() => sessionStorage.setItem(chatId, JSON.stringify(messages)), [messages]);
  const submit = (event) => {
    event.preventDefault();
    sendMessage({ text: input });
    setInput('');
  };
  return (
    <main>
      <h1>Shop assistant</h1>
      {messages.map((message) => (
        <section key={message.id} className={message.role}>
          {message.parts.map((part, i) => (
            <Part key={i} part={part} answer={addToolApprovalResponse} />
          ))}
        </section>
      ))}
      <form onSubmit={submit}>
        <input value={input} onChange={(e) => setInput(e.target.value)} placeholder="Message" />
        <button type="submit">Send</button> <span className="status">{status}</span>
      </form>
    </main>
  );
}

createRoot(document.getElementById('root')).render(<App />);
