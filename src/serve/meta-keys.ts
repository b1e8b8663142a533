/** The `_meta` key a client sends an idempotency key under, so a call made again finds its run. */
export const IDEMPOTENCY_KEY = 'june/idempotency-key';
/** The `_meta` key of a served call's result that names its run. */
export const RUN_ID_KEY = 'june/run-id';
