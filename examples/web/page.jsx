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

// The page keeps its messages: a reloaded page shows them, and the reconnect replaces the
// message of a run still running. The next request sends them all, unless the server keeps
// the chat as a thread (`?thread` in the address: chatHandler({ thread: true })): then it
// sends only its last message, and the server's thread holds the conversation: a page that
// kept nothing reads it from `/api/chat/<chatId>/messages`.
const saved = JSON.parse(sessionStorage.getItem(chatId) ?? '[]');
const threaded = params.has('thread');
const lastMessageOnly = ({ id, messages, body }) => ({
  body: { ...body, id, messages: messages.slice(-1) },
});

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

/**
 * A question's form, from its answer schema (JSON Schema): a choice as a select, a number,
 * a yes/no, a text, anything else as JSON. The answer goes as an answer instead of the tool.
 */
function QuestionForm({ part, question, answer }) {
  const schema = question.answerSchema;
  const [text, setText] = useState(schema.enum ? JSON.stringify(schema.enum[0]) : '');
  const [reason, setReason] = useState('');
  const id = part.approval.id;
  const valueOf = () => {
    if (schema.enum) return JSON.parse(text);
    if (schema.type === 'number' || schema.type === 'integer') return Number(text);
    if (schema.type === 'boolean') return text === 'true';
    if (schema.type === 'string') return text;
    return JSON.parse(text);
  };
  const send = (event) => {
    event.preventDefault();
    edits[id] = { output: valueOf() };
    answer({ id, approved: false });
  };
  const field = schema.enum ? (
    <select value={text} onChange={(e) => setText(e.target.value)}>
      {schema.enum.map((value) => (
        <option key={JSON.stringify(value)} value={JSON.stringify(value)}>
          {String(value)}
        </option>
      ))}
    </select>
  ) : schema.type === 'boolean' ? (
    <input type="checkbox" onChange={(e) => setText(String(e.target.checked))} />
  ) : (
    <input
      type={schema.type === 'number' || schema.type === 'integer' ? 'number' : 'text'}
      placeholder={schema.type === 'string' ? 'answer' : 'answer (JSON)'}
      value={text}
      onChange={(e) => setText(e.target.value)}
    />
  );
  return (
    <form className="question" onSubmit={send}>
      <p>{question.prompt}</p>
      {field} <button type="submit">Answer</button>
      <input placeholder="reason" value={reason} onChange={(e) => setReason(e.target.value)} />
      <button type="button" onClick={() => answer({ id, approved: false, reason })}>
        Decline
      </button>
    </form>
  );
}

function Part({ part, answer, questions }) {
  if (part.type === 'text') return <p className="text">{part.text}</p>;
  if (part.type === 'data-june-step')
    return <p className="step">{`step ${part.data.step}: ${part.data.status}`}</p>;
  if (!part.type.startsWith('tool-')) return null;
  return (
    <div className="tool" data-state={part.state}>
      <code>{`${part.type.slice(5)} ${JSON.stringify(part.input)}`}</code> <em>{part.state}</em>
      {part.state === 'approval-requested' &&
        (questions[part.toolCallId] ? (
          <QuestionForm part={part} question={questions[part.toolCallId]} answer={answer} />
        ) : (
          <Approval part={part} answer={answer} />
        ))}
      {part.state === 'output-available' && <pre>{JSON.stringify(part.output)}</pre>}
    </div>
  );
}

function App() {
  const [input, setInput] = useState('');
  const { messages, setMessages, sendMessage, addToolApprovalResponse, status } = useChat({
    id: chatId,
    messages: saved,
    resume: true,
    transport: new DefaultChatTransport({
      api: '/api/chat',
      body: takeEdits,
      ...(threaded ? { prepareSendMessagesRequest: lastMessageOnly } : {}),
    }),
    sendAutomaticallyWhen: approvalsAnswered,
  });
  useEffect(() => sessionStorage.setItem(chatId, JSON.stringify(messages)), [messages]);
  useEffect(() => {
    if (!threaded || saved.length > 0) return;
    fetch(`/api/chat/${encodeURIComponent(chatId)}/messages`)
      .then((response) => (response.ok ? response.json() : { messages: [] }))
      .then((thread) => setMessages((shown) => (shown.length > 0 ? shown : thread.messages)));
  }, []);
  const submit = (event) => {
    event.preventDefault();
    sendMessage({ text: input });
    setInput('');
  };
  return (
    <main>
      <h1>Shop assistant</h1>
      {messages.map((message) => {
        // a <Question>'s part comes with a data-june-question part: its prompt and answer schema
        const questions = Object.fromEntries(
          message.parts
            .filter((part) => part.type === 'data-june-question')
            .map((part) => [part.data.toolCallId, part.data.question]),
        );
        return (
          <section key={message.id} className={message.role}>
            {message.parts.map((part, i) => (
              <Part key={i} part={part} answer={addToolApprovalResponse} questions={questions} />
            ))}
          </section>
        );
      })}
      <form onSubmit={submit}>
        <input value={input} onChange={(e) => setInput(e.target.value)} placeholder="Message" />
        <button type="submit">Send</button> <span className="status">{status}</span>
      </form>
    </main>
  );
}

createRoot(document.getElementById('root')).render(<App />);
