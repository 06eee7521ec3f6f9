import jsonata from 'jsonata';
import { MAX_EXPRESSION_LENGTH } from './definition.js';

/**
 * JSONata with its guards on (docs/flows.md, "Expressions"): each evaluation stops after EXPRESSION_TIMEOUT_MS,
 * at EXPRESSION_MAX_DEPTH nested evaluations and at EXPRESSION_MAX_SEQUENCE items in one sequence; results over
 * EXPRESSION_MAX_RESULT_BYTES are refused. Regular expressions are refused outright (a backtracking pattern could
 * hold the event loop between two guard checks), and `$pad` widths are capped. Runs in activities only.
 */
export const EXPRESSION_TIMEOUT_MS = 250;
export const EXPRESSION_MAX_DEPTH = 200;
export const EXPRESSION_MAX_SEQUENCE = 10_000;
export const EXPRESSION_MAX_RESULT_BYTES = 64 * 1024;
const MAX_PAD = 1_000;

export class ExpressionError extends Error {
  constructor(
    readonly expression: string,
    reason: string,
  ) {
    super(`expression "${expression.length > 60 ? `${expression.slice(0, 57)}...` : expression}" failed: ${reason}`);
    this.name = 'ExpressionError';
  }
}

class NoRegex {
  constructor() {
    throw Object.assign(new Error('regular expressions are not allowed in flow expressions'), { code: 'FLOW_REGEX' });
  }
}

const reasonOf = (err: unknown): string => {
  const e = err as { code?: string; message?: string; value?: unknown };
  if (e?.code === 'D1012') return `ran longer than ${EXPRESSION_TIMEOUT_MS} ms`;
  if (e?.code === 'D1011') return `nested deeper than ${EXPRESSION_MAX_DEPTH}`;
  if (e?.code === 'D2015' || e?.code === 'D2014') return `a sequence exceeded ${EXPRESSION_MAX_SEQUENCE} items`;
  return e?.message ?? String(err);
};

/** Compiles an expression (without its `=`); a syntax error is an ExpressionError. */
export function compileExpression(source: string): jsonata.Expression {
  if (source.length > MAX_EXPRESSION_LENGTH) throw new ExpressionError(source, `longer than ${MAX_EXPRESSION_LENGTH} characters`);
  try {
    return jsonata(source, {
      timeout: EXPRESSION_TIMEOUT_MS,
      stack: EXPRESSION_MAX_DEPTH,
      sequence: EXPRESSION_MAX_SEQUENCE,
      RegexEngine: NoRegex as unknown as RegExpConstructor,
    });
  } catch (err) {
    throw new ExpressionError(source, reasonOf(err));
  }
}

/** The syntax error of an expression, or undefined when it compiles. */
export function expressionSyntaxError(source: string): string | undefined {
  try {
    compileExpression(source);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

const guardedPad = (value: string, width: number, char?: string) => {
  if (Math.abs(width) > MAX_PAD) throw new Error(`$pad width is limited to ${MAX_PAD}`);
  const fill = char === undefined || char === '' ? ' ' : char;
  const missing = Math.max(0, Math.abs(width) - [...value].length);
  const padding = fill.repeat(missing).slice(0, missing);
  return width < 0 ? padding + value : value + padding;
};

/** Evaluates one expression over `context`; the result is plain JSON (undefined becomes null). */
export async function evaluateExpression(source: string, context: unknown): Promise<unknown> {
  const expression = compileExpression(source);
  let result: unknown;
  try {
    result = await expression.evaluate(context, { pad: guardedPad });
  } catch (err) {
    throw new ExpressionError(source, reasonOf(err));
  }
  const json = result === undefined ? 'null' : JSON.stringify(result);
  if (json === undefined) throw new ExpressionError(source, 'the result is a function, not JSON');
  if (Buffer.byteLength(json) > EXPRESSION_MAX_RESULT_BYTES) {
    throw new ExpressionError(source, `the result is larger than ${EXPRESSION_MAX_RESULT_BYTES} bytes`);
  }
  return JSON.parse(json);
}

/** Resolves every expression inside a node's parameters, depth first; other values are kept as written. */
export async function resolveTemplate(value: unknown, context: unknown): Promise<unknown> {
  if (typeof value === 'string') return value.startsWith('=') ? evaluateExpression(value.slice(1), context) : value;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) out.push(await resolveTemplate(item, context));
    return out;
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = await resolveTemplate(item, context);
    return out;
  }
  return value;
}
