import { startTracing } from '../tracing/tracing.js';

// Tracing first, the process after it: the instrumentations must be in place before koa, pg and http are loaded.
await startTracing('api');
await import('./apiProcess.js');
