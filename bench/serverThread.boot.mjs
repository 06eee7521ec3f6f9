// Worker threads start without the parent's TypeScript loader: register tsx, then load the thread.
import { register } from 'tsx/esm/api';

register();
await import('./serverThread.ts');
