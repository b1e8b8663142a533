export { jsonForm, plainJson } from './json-form.js';
export type { JsonForm, JsonValue } from './json-form.js';
export { taggedJson, untagBytes } from './tagged-json.js';
export type { BytesTag } from './tagged-json.js';
export { stableJson } from './stable-json.js';
