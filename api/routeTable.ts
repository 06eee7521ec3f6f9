import { context } from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';
import compose from 'koa-compose';
import { methodNotAllowed } from '../src/core/errors.js';
import type { AppContext, AppMiddleware } from './context.js';

/**
 * The API's routes, matched segment by segment and each route's middleware composed once, when it is added.
 * It replaces @koa/router for /api/v1, which tested every route's regex and composed the matched chain anew on
 * each request (docs/performance.md, Read path). What it answers is what that router answered:
 * - a path segment `:name` matches one non-empty segment, percent-decoded into `ctx.params` (kept raw when it
 *   does not decode); literal segments match ASCII case-insensitively; one trailing slash is ignored;
 * - the first route added that matches the path and the method runs (a GET route answers HEAD too);
 * - a path that some route matches, with a method none of them has: 405 METHOD_NOT_ALLOWED with Allow, or for
 *   OPTIONS 200 with Allow and an empty body;
 * - a path no route matches goes on to the next middleware (the fallback answers 404).
 */
export class RouteTable {
  private readonly root = new TableNode();
  private readonly added: TableRoute[] = [];

  /** `prefix` goes before every path added (`/api/v1`). */
  constructor(private readonly prefix: string) {}

  /** `path` in Koa style (`/guilds/:guildId`): with the prefix, it is also the route's metrics label. */
  add(method: 'get' | 'post' | 'patch', path: string, middleware: AppMiddleware[]): void {
    const template = this.prefix + path;
    const names: string[] = [];
    let node = this.root;
    for (const segment of template.split('/').slice(1)) {
      if (segment.startsWith(':')) {
        names.push(segment.slice(1));
        node = node.param ??= new TableNode();
      } else {
        const literal = segment.toLowerCase();
        node = node.literals.get(literal) ?? node.literals.set(literal, new TableNode()).get(literal)!;
      }
    }
    const route = { order: this.added.length, template, methods: method === 'get' ? ['HEAD', 'GET'] : [method.toUpperCase()], paramNames: names, run: compose(middleware) };
    this.added.push(route);
    node.routes.push(route);
  }

  /** What the table serves, as `GET /api/v1/guilds/:guildId` (HEAD left out), in the order added. */
  served(): string[] {
    return this.added.flatMap((route) => route.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${route.template}`));
  }

  /** Koa middleware answering the table's paths. */
  middleware(): AppMiddleware {
    return (ctx, next) => {
      const found = this.find(ctx.path);
      if (found === undefined) return next();
      const match = found.find((candidate) => candidate.route.methods.includes(ctx.method));
      if (match === undefined) {
        refuseMethod(ctx, found);
        return Promise.resolve();
      }
      ctx.params = paramsOf(match.route.paramNames, match.values);
      (ctx as RoutedContext)._matchedRoute = match.route.template;
      // With tracing on, the http server span takes its name and http.route from here (Koa's instrumentation
      // reads the template only in the middleware it patched, and the route's chain is not one of them).
      const rpc = getRPCMetadata(context.active());
      if (rpc?.type === RPCType.HTTP) rpc.route = match.route.template;
      return match.route.run(ctx);
    };
  }

  /** The routes matching `path`, in the order added, with its parameter segments; undefined when none matches. */
  private find(path: string): RouteMatch[] | undefined {
    if (path.charCodeAt(0) !== SLASH) return undefined;
    const end = path.length > 1 && path.charCodeAt(path.length - 1) === SLASH ? path.length - 1 : path.length;
    const matches: RouteMatch[] = [];
    collect(this.root, path.slice(1, end).split('/'), 0, [], matches);
    if (matches.length === 0) return undefined;
    // Two templates can match one path (a literal and a parameter in the same place): the first added comes first.
    if (matches.length > 1) matches.sort((a, b) => a.route.order - b.route.order);
    return matches;
  }
}

interface TableRoute {
  order: number;
  template: string;
  methods: string[];
  paramNames: string[];
  run: (ctx: AppContext) => Promise<unknown>;
}

interface RouteMatch {
  route: TableRoute;
  /** The path's segments where the route has parameters, still percent-encoded. */
  values: string[];
}

class TableNode {
  readonly literals = new Map<string, TableNode>();
  param: TableNode | undefined;
  readonly routes: TableRoute[] = [];
}

/** Koa's context as @koa/router left it: the route's template, which the request metrics label requests by. */
type RoutedContext = AppContext & { _matchedRoute?: string };

const SLASH = 0x2f;
const ASCII = /^[\x00-\x7f]*$/;

/** Walks every branch `segments` can take (a literal and a parameter can both match), adding the routes at the end. */
function collect(node: TableNode, segments: string[], at: number, values: string[], matches: RouteMatch[]): void {
  if (at === segments.length) {
    for (const route of node.routes) matches.push({ route, values });
    return;
  }
  const segment = segments[at]!;
  const lower = segment.toLowerCase();
  // Only ASCII letters fold, as in @koa/router's case-insensitive regexes: `\u212a` (Kelvin) lowercases to `k`.
  const literal = node.literals.get(lower);
  if (literal && (lower === segment || ASCII.test(segment))) collect(literal, segments, at + 1, values, matches);
  if (node.param && segment !== '') collect(node.param, segments, at + 1, [...values, segment], matches);
}

function paramsOf(names: string[], values: string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) params[names[i]!] = decodeSegment(values[i]!);
  return params;
}

function decodeSegment(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A known path with another method: its methods in the order their routes were added. */
function refuseMethod(ctx: AppContext, matches: RouteMatch[]): void {
  const allowed = [...new Set(matches.flatMap((match) => match.route.methods))];
  if (ctx.method !== 'OPTIONS') throw methodNotAllowed(allowed);
  ctx.status = 200;
  ctx.body = '';
  ctx.set('Allow', allowed.join(', '));
}
