export { jsonForm, plainJson } from './json-form.js';
export type { JsonForm, JsonValue } from './json-form.js';
