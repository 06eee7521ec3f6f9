import { describe, expect, it } from 'vitest';
import { EVENT_DATA_SCHEMAS } from '../../../src/events/contract.js';
import { EVENT_TYPES } from '../../../src/events/eventTypes.js';
import { exampleEventData } from '../../../src/webhooks/exampleEvents.js';

describe('exampleEventData', () => {
  it.each(EVENT_TYPES)('gives %s data of its documented schema, every field present', (type) => {
    const data = exampleEventData(type, new Date('2026-05-01T10:00:00.000Z'), 7);
    const schema = EVENT_DATA_SCHEMAS[type];
    // strict: no field the schema does not document, and parse fails on any missing or mistyped one.
    expect(schema.strict().parse(data)).toEqual(data);
    expect(Object.keys(data).sort()).toEqual(Object.keys(schema.shape).sort());
  });

  it('dates the example at the given time and names the endpoint of a webhook.test', () => {
    const at = new Date('2026-05-01T10:00:00.000Z');
    expect(exampleEventData('bank.transaction', at, 7)).toMatchObject({ createdAt: at.toISOString() });
    expect(exampleEventData('webhook.test', at, 7)).toMatchObject({ endpointId: 7 });
  });
});
