import type { z } from 'zod';

/** How a response is checked against its documented schema before it leaves (RESPONSE_CHECK). */
export type ResponseCheckMode = 'parse' | 'shape';

type Check = (value: unknown, path: string) => unknown;

/** A response that is not what its route documents: a bug, answered 500 by the error boundary. */
export class ResponseShapeError extends Error {
  constructor(path: string, expected: string) {
    super(`The response does not match its schema at ${path || '(root)'}: expected ${expected}.`);
  }
}

/**
 * The check of what a route returns. `parse` runs the schema (every refinement, format and range; unknown fields
 * stripped): tests and development. `shape` is compiled once per schema: it keeps the documented fields only (so
 * nothing undocumented leaks, as with `parse`), requires the required ones and checks the type of strings, numbers
 * and booleans, without formats, ranges or refinements; the parts it cannot compile (unions, transforms, defaults,
 * records) are parsed by the schema as before. Production's default: the handlers' types already promise the rest.
 */
export function compileResponseCheck(schema: z.ZodType, mode: ResponseCheckMode): (value: unknown) => unknown {
  if (mode === 'parse') return (value) => schema.parse(value);
  const check = compile(schema);
  return (value) => check(value, '');
}

interface ZodInternals {
  _zod: { def: { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; innerType?: z.ZodType }; optin?: string };
}
const internals = (schema: z.ZodType) => (schema as unknown as ZodInternals)._zod;

function compile(schema: z.ZodType): Check {
  const def = internals(schema).def;
  switch (def.type) {
    case 'object':
      return compileObject(def.shape!);
    case 'array': {
      const element = compile(def.element!);
      return (value, path) => {
        if (!Array.isArray(value)) throw new ResponseShapeError(path, 'an array');
        return value.map((item, i) => element(item, `${path}.${i}`));
      };
    }
    case 'nullable': {
      const inner = compile(def.innerType!);
      return (value, path) => (value === null ? null : inner(value, path));
    }
    case 'optional': {
      const inner = compile(def.innerType!);
      return (value, path) => (value === undefined ? undefined : inner(value, path));
    }
    case 'string':
    case 'number':
    case 'boolean':
      return primitive(def.type);
    case 'enum':
    case 'literal':
      return (value) => value;
    case 'unknown':
    case 'any':
      return (value) => value;
    default:
      // Unions, pipes, transforms, defaults, records and the rest: the schema itself decides.
      return (value) => schema.parse(value);
  }
}

function compileObject(shape: Record<string, z.ZodType>): Check {
  const fields = Object.entries(shape).map(([key, field]) => ({
    key,
    check: compile(field),
    // Optional, defaulted, unknown: a missing value is the schema's to handle, not a missing field.
    required: internals(field).optin === undefined && !['unknown', 'any'].includes(internals(field).def.type),
  }));
  return (value, path) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ResponseShapeError(path, 'an object');
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const { key, check, required } of fields) {
      const field = source[key];
      if (field === undefined && required) throw new ResponseShapeError(`${path}.${key}`, 'a value');
      const checked = check(field, `${path}.${key}`);
      if (checked !== undefined) out[key] = checked;
    }
    return out;
  };
}

function primitive(type: 'string' | 'number' | 'boolean'): Check {
  return (value, path) => {
    if (typeof value !== type) throw new ResponseShapeError(path, `a ${type}`);
    return value;
  };
}

const compiled: Record<ResponseCheckMode, WeakMap<z.ZodType, (value: unknown) => unknown>> = { parse: new WeakMap(), shape: new WeakMap() };

/** The check of `schema` in `mode`, compiled on first use and kept with the schema object. */
export function responseCheckFor(schema: z.ZodType, mode: ResponseCheckMode): (value: unknown) => unknown {
  let check = compiled[mode].get(schema);
  if (!check) compiled[mode].set(schema, (check = compileResponseCheck(schema, mode)));
  return check;
}
