export { OtlpTraceExporter, otlpTracesUrl, type OtlpProtocol, type OtlpTraceExporterOptions } from './otlp-trace-exporter.js';
