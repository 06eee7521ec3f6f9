import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ConsoleRouter } from './consoleState.js';

const require = createRequire(import.meta.url);

interface Asset {
  type: string;
  body: Buffer;
}

/**
 * The console's static files, read once at start: htmx from its pinned package (no CDN), the stylesheet and the copy
 * script beside this file. They change only with a deploy, so browsers may keep them for an hour.
 */
function loadAssets(): Map<string, Asset> {
  const own = (name: string) => readFileSync(new URL(`./assets/${name}`, import.meta.url));
  // A Map, not an object: a name such as `toString` or `__proto__` must find nothing rather than an inherited key.
  return new Map([
    ['htmx.min.js', { type: 'text/javascript; charset=utf-8', body: readFileSync(require.resolve('htmx.org/dist/htmx.min.js')) }],
    ['console.js', { type: 'text/javascript; charset=utf-8', body: own('console.js') }],
    ['console.css', { type: 'text/css; charset=utf-8', body: own('console.css') }],
  ]);
}

export function assetRoutes(router: ConsoleRouter): void {
  const assets = loadAssets();
  router.get('/assets/:name', (ctx, next) => {
    const asset = assets.get(ctx.params.name ?? '');
    if (!asset) return next();
    ctx.type = asset.type;
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = asset.body;
  });
}
