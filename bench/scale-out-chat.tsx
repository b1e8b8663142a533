// The durable chat of bench/scale-out.ts: one turn a run, answered at once by a scripted model
// (one model call, one text), run by the same `june worker` processes as scale-out-flow.tsx
// and reached through `june/web`'s chat handler, as a web app's chat would be.
import { Agent } from 'june';
import { scriptedModel } from 'june/testing';
import { ChatTurns, type ChatInput } from 'june/web';

const script = {
  $comment: 'Bench fixture: the first turn of a chat, answered with one text',
  steps: { 'turn-1': [{ text: 'Hello.' }] },
};

/** A chat whose first turn answers `Hello.` (each message is a run of its own). */
export default function ScaleOutChat({ chat }: { chat: ChatInput }) {
  return (
    <Agent model={scriptedModel(script, { name: 'bench-chat' })} messages={chat.history}>
      <ChatTurns chat={chat} />
    </Agent>
  );
}
