import type { PromptFile } from '../../src/trace/trace-node.js';

/**
 * The files and images of a step's prompt: an image sent as a data: URL shows as the image;
 * any other file (or an image at an http(s) URL, which Studio does not fetch) as its media
 * type, name and URL.
 */
export function PromptFiles({ files }: { files: PromptFile[] }) {
  return (
    <ul class="prompt-files">
      {files.map((file, index) => (
        <li key={index} class="prompt-file">
          {isInlineImage(file) ? (
            <img
              src={file.url}
              alt={file.filename ?? `image ${index + 1} (${file.mediaType})`}
              data-testid="prompt-image"
            />
          ) : null}
          <div class="muted mono">
            {file.mediaType}
            {file.filename ? ` · ${file.filename}` : ''}
            {file.url && !file.url.startsWith('data:') ? ` · ${file.url}` : ''}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** An image whose bytes the trace holds (a data: URL of an image/* type). */
function isInlineImage(file: PromptFile): file is PromptFile & { url: string } {
  return /^data:image\/[a-z0-9.+-]+[;,]/i.test(file.url ?? '');
}
