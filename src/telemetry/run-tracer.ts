import { trace, type Tracer, type TracerProvider } from '@opentelemetry/api';

/** The instrumentation scope of June's spans. */
export const TRACER_NAME = 'june';

/**
 * The tracer a run exports its spans with: the one given (`run(el, { tracer })`), none for
 * `false`, else the globally registered tracer provider's, or `undefined` when no provider
 * is registered, so a run without OpenTelemetry records nothing and spends nothing.
 *
 * Telling "none registered" apart costs one global lookup: `@opentelemetry/api` keeps a
 * proxy provider whose delegate is set only by `trace.setGlobalTracerProvider`, and a proxy
 * without a delegate has no tracer to give (`getDelegateTracer` returns `undefined`). The
 * proxy may come from another copy of the API package (the global is shared by version), so
 * it is read by shape, not by class.
 */
export function runTracer(option: Tracer | false | undefined): Tracer | undefined {
  if (option === false) return undefined;
  if (option !== undefined) return option;
  const provider = trace.getTracerProvider() as TracerProvider & {
    getDelegateTracer?: (name: string) => Tracer | undefined;
  };
  return typeof provider.getDelegateTracer === 'function'
    ? provider.getDelegateTracer(TRACER_NAME)
    : provider.getTracer(TRACER_NAME);
}
