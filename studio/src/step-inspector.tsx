import type { TraceNode } from '../../src/trace/trace-node.js';
import { JsonView } from './json-view.js';
import { MessagesView } from './messages-view.js';
import { PromptFiles } from './prompt-files.js';
import { Facts, Section } from './section.js';
import { GuardsSection } from './guards-section.js';

/** A step: its path, prompt, result and the messages it added to the conversation. */
export function StepInspector({ node }: { node: TraceNode }) {
  return (
    <>
      <Facts rows={[['Step path', node.step && <span class="mono">{node.step}</span>]]} />
      <Section title="Prompt" testId="prompt">
        {node.prompt !== undefined ? (
          <pre class="text">{node.prompt}</pre>
        ) : (
          <p class="muted">Not rendered yet.</p>
        )}
        {node.files && <PromptFiles files={node.files} />}
      </Section>
      <Section title="Result" testId="result">
        {node.result !== undefined ? (
          <JsonView value={node.result} />
        ) : (
          <p class="muted">{node.status === 'running' ? 'The step is running.' : 'No result.'}</p>
        )}
      </Section>
      <GuardsSection node={node} />
      <Section title="Messages" testId="messages">
        {node.messages ? (
          <MessagesView messages={node.messages} />
        ) : (
          <p class="muted">{node.status === 'running' ? 'The step is running.' : 'No messages.'}</p>
        )}
      </Section>
    </>
  );
}
