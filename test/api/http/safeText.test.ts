import { describe, expect, it } from 'vitest';
import { SAFE_TEXT_MESSAGE, SAFE_TEXT_PATTERN, SafeText } from '../../../src/core/contract.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { addTestMember, bearer, createTestGuild, createTestKey } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';

// The JSON body parser refuses strings PostgreSQL cannot store (U+0000, unpaired UTF-16 surrogates). The body
// schemas say so too, as a `pattern` in the OpenAPI document: a request valid against the document is never refused.
const { db, app } = useApiTestBed();

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  pattern?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: boolean | Schema;
};
type Document = {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
};

/** Every string schema reachable from the request bodies, with where it was found. */
function bodyStrings(doc: Document): Array<[string, Schema]> {
  const found: Array<[string, Schema]> = [];
  const visit = (schema: Schema, where: string, seen: Set<string>) => {
    if (schema.$ref) {
      const name = schema.$ref.replace('#/components/schemas/', '');
      if (seen.has(name)) return;
      visit(doc.components.schemas[name]!, `${where} → ${name}`, new Set([...seen, name]));
      return;
    }
    const types = [schema.type ?? []].flat();
    if (types.includes('string') && !schema.enum) found.push([where, schema]);
    for (const [key, child] of Object.entries(schema.properties ?? {})) visit(child, `${where}.${key}`, seen);
    if (schema.items) visit(schema.items, `${where}[]`, seen);
    if (typeof schema.additionalProperties === 'object') visit(schema.additionalProperties, `${where}{}`, seen);
    for (const child of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) visit(child, where, seen);
  };
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      for (const content of Object.values(op.requestBody?.content ?? {})) visit(content.schema, `${method.toUpperCase()} ${path}`, new Set());
    }
  }
  return found;
}

const SAMPLES: Array<[string, string, boolean]> = [
  ['plain text', 'quest reward', true],
  ['accents and symbols', 'naïve café ✓ €', true],
  ['a surrogate pair (emoji)', 'gg 😀🎉', true],
  ['other control characters', 'tab\there\u0001\u001f\u007f', true],
  ['U+FFFF and U+FFFE', '\uffff\ufffe', true],
  ['U+0000', 'a\u0000b', false],
  ['only U+0000', '\u0000', false],
  ['a lone high surrogate', 'a\ud800b', false],
  ['a lone high surrogate at the end', 'end\udbff', false],
  ['a lone low surrogate', '\udc00x', false],
  ['a pair in the wrong order', '\ude00\ud83d', false],
  ['a high surrogate before a pair', '\ud800\ud83d\ude00', false],
];

describe('body strings refuse U+0000 and unpaired surrogates in the schema too', () => {
  it('every string of every request body carries the pattern in the OpenAPI document', async () => {
    const doc = (await app.http('GET', '/openapi.json')).body as Document;
    const strings = bodyStrings(doc);
    expect(strings.map(([where]) => where)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('BankChangeRequest.reason'),
        expect.stringContaining('XpChangeRequest.reason'),
        expect.stringContaining('WarnRequest.reason'),
        expect.stringContaining('WarnRequest.evidence[]'),
        expect.stringContaining('AppealDecisionRequest.reason'),
      ]),
    );
    for (const [where, schema] of strings) expect(schema.pattern, where).toBe(SAFE_TEXT_PATTERN.source);
    // Links keep their format.
    const evidence = strings.find(([where]) => where.endsWith('WarnRequest.evidence[]'))![1] as Schema & { format?: string };
    expect(evidence.format).toBe('uri');
  });

  it.each(SAMPLES)('%s: the schema, the documented pattern and the API agree', async (_label, text, storable) => {
    expect(SafeText.safeParse(text).success).toBe(storable);
    // JSON Schema validators read `pattern` as ECMA-262, with or without the u flag.
    expect(new RegExp(SAFE_TEXT_PATTERN.source, 'u').test(text)).toBe(storable);
    expect(new RegExp(SAFE_TEXT_PATTERN.source).test(text)).toBe(storable);

    const guild = await createTestGuild(db());
    const { key } = await createTestKey(db(), guild, { scopes: ['bank:write'] });
    const userId = await addTestMember(db(), guild);
    const before = await countWrites(db(), guild.id);
    const res = await app.http('POST', `/guilds/${guild.id}/bank/members/${userId}/transactions`, {
      headers: bearer(key),
      body: { type: 'add', amount: 1, reason: text },
    });
    if (storable) {
      expect(res.status, res.text).toBe(201);
      return;
    }
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'INVALID_REQUEST',
      message: expect.any(String),
      issues: [{ location: 'body', path: 'reason', message: SAFE_TEXT_MESSAGE }],
    });
    expect(await countWrites(db(), guild.id)).toEqual(before);
  });

  it('the schema refuses with the body parser\'s message, and accepts a long string of astral characters', () => {
    const result = SafeText.safeParse('x'.repeat(100_000) + '\u0000');
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.message)).toEqual([SAFE_TEXT_MESSAGE]);
    expect(SafeText.safeParse('😀'.repeat(500_000)).success).toBe(true);
  });
});
