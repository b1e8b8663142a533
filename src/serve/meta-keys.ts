/** The `_meta` key a client sends an idempotency key under, so a call made again finds its run. */
export { IDEMPOTENCY_KEY } from '../mcp/june-request-meta.js';
/** The `_meta` key of a served call's result that names its run. */
export const RUN_ID_KEY = 'june/run-id';
