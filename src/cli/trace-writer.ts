/** The trace file writer under the name `june run` first gave it (it lives with the trace now). */
export {
  TraceFileWriter as TraceWriter,
  type TraceFileWriterOptions as TraceWriterOptions,
} from '../trace/trace-file-writer.js';
