import { startTracing } from '../tracing/tracing.js';

// Tracing first, the process after it: the instrumentations must be in place before pg, http and undici are loaded.
await startTracing('worker');
await import('./workerProcess.js');
