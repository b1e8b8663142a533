// Studio shows the image a step's prompt carried (a chat message's attached screenshot) as an
// image in the step's Prompt section, and a file that is no image by its media type and name.
import { Agent, run, Step, type Trace } from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { writeTrace } from '../fixtures/studio/workflows.js';
import { useStudioPage } from './support.js';

/** A 2x2 red PNG. */
const png =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==';

async function recordLook(dir: string): Promise<Trace> {
  const model = scriptedModel({
    $comment: 'Test fixture: a step that looks at a picture',
    steps: { look: [{ text: 'A red square.' }] },
  });
  const { trace } = await run(
    <Agent model={model}>
      <Step
        id="look"
        prompt={[
          { type: 'text', text: 'What colour is this?' },
          {
            type: 'file',
            mediaType: 'image/png',
            filename: 'red.png',
            data: `data:image/png;base64,${png}`,
          },
          {
            type: 'file',
            mediaType: 'application/pdf',
            filename: 'notes.pdf',
            data: 'JVBERi0xLjQK',
          },
        ]}
      />
    </Agent>,
  ).result;
  await writeTrace(dir, trace);
  return trace;
}

describe('June Studio: a prompt with an image', () => {
  let look: Trace;
  const ui = useStudioPage(async (dir) => {
    look = await recordLook(dir);
  });

  it("shows the image in the step's Prompt section, and the other file by its type and name", async () => {
    await ui.page.goto(`${ui.studio.url}#/runs/${encodeURIComponent(look.runId)}`);
    await ui.page.locator('[role=treeitem][data-kind="step"][data-name="look"]').click();
    const prompt = ui.page.getByTestId('inspector').getByTestId('prompt');
    await expect.poll(() => prompt.locator('pre').innerText()).toBe('What colour is this?');
    const image = prompt.getByTestId('prompt-image');
    expect(await image.count()).toBe(1);
    expect(await image.getAttribute('alt')).toBe('red.png');
    // the browser decoded it: a 2x2 picture
    await expect
      .poll(() =>
        image.evaluate((img: HTMLImageElement) => [
          img.complete,
          img.naturalWidth,
          img.naturalHeight,
        ]),
      )
      .toEqual([true, 2, 2]);
    const labels = await prompt.locator('.prompt-file .mono').allInnerTexts();
    expect(labels).toEqual(['image/png · red.png', 'application/pdf · notes.pdf']);
  });
});
