/**
 * A support conversation across runs: each run answers one message, and `--thread` makes
 * the runs one conversation. The agent's second and third runs start from what the runs
 * before them said, so it still knows the order number the customer gave in the first.
 *
 *   npx june run examples/threads.tsx --thread ana --props '{"message":"Hi, my order A-1001 has not arrived."}' --script examples/threads.script.json
 *   npx june run examples/threads.tsx --thread ana --props '{"message":"Can you check it again?"}' --script examples/threads.script.json
 *   npx june run examples/threads.tsx --thread ana --props '{"message":"Thanks, that is all."}' --script examples/threads.script.json
 *   npx june threads show ana      # the thread's runs, in order, and its conversation
 *   npx june threads delete ana    # its runs' journals and traces, and the thread
 *
 * Offline, each run of the thread takes the script's next turns; with OPENAI_API_KEY set
 * and no --script, a real model answers.
 */
import { tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { z } from 'zod';

/** The message this run answers. */
export const props = z.object({ message: z.string() });

const orders: Record<string, string> = {
  'A-1001': 'shipped on 2 December, arriving 5 December',
};

const orderStatus = tool({
  description: 'The status of an order, by its number (e.g. A-1001)',
  inputSchema: z.object({ order: z.string() }),
  execute: async ({ order }) => orders[order] ?? `no order ${order}`,
});

export default function Support({ message }: z.infer<typeof props>) {
  return (
    <Agent
      name="support"
      model={openai('gpt-5-mini')}
      instructions="You answer a customer's messages in one or two sentences. Look orders up before you answer about them."
    >
      <Tool name="orderStatus" value={orderStatus} />
      <Step id="reply" prompt={message} />
    </Agent>
  );
}
