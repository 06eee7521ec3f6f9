import { describe, expect, it } from 'vitest';
import { formProblem } from '../../../src/applications/createForm.js';
import { isDecidable, reapplyAfter } from '../../../src/applications/decisionRules.js';
import { answersFor, formAccepts, statusChangeRefusal, submitRefusal } from '../../../src/applications/submissionRules.js';
import { snowflakeCreatedAt } from '../../../src/core/snowflake.js';

const NOW = new Date('2026-11-24T12:00:00.000Z');
const HOUR = 3_600_000;
const OPEN = { open: true, opensAt: null, closesAt: null };

describe('formAccepts', () => {
  it('needs the toggle on and now inside [opensAt, closesAt)', () => {
    expect(formAccepts(OPEN, NOW)).toBe(true);
    expect(formAccepts({ ...OPEN, open: false }, NOW)).toBe(false);
    expect(formAccepts({ ...OPEN, opensAt: NOW }, NOW)).toBe(true);
    expect(formAccepts({ ...OPEN, opensAt: new Date(NOW.getTime() + 1) }, NOW)).toBe(false);
    expect(formAccepts({ ...OPEN, closesAt: NOW }, NOW)).toBe(false);
    expect(formAccepts({ ...OPEN, closesAt: new Date(NOW.getTime() + 1) }, NOW)).toBe(true);
  });
});

describe('submitRefusal', () => {
  it('refuses a closed form, a second open submission, and a denial still cooling down', () => {
    expect(submitRefusal({ ...OPEN, open: false }, [], NOW)?.code).toBe('FORM_CLOSED');
    for (const status of ['pending', 'interview', 'hold'] as const) {
      expect(submitRefusal(OPEN, [{ number: 3, status, reapplyAfter: null }], NOW)).toMatchObject({ code: 'APPLICATION_ALREADY_OPEN' });
    }
    const until = new Date(NOW.getTime() + HOUR);
    expect(submitRefusal(OPEN, [{ number: 1, status: 'denied', reapplyAfter: until }], NOW)).toEqual({
      code: 'REAPPLY_COOLDOWN',
      message: expect.stringContaining(until.toISOString()),
    });
  });

  it('lets the user apply after an acceptance, a withdrawal or a cooldown that ended', () => {
    expect(submitRefusal(OPEN, [], NOW)).toBeUndefined();
    expect(submitRefusal(OPEN, [{ number: 1, status: 'accepted', reapplyAfter: null }], NOW)).toBeUndefined();
    expect(submitRefusal(OPEN, [{ number: 1, status: 'withdrawn', reapplyAfter: null }], NOW)).toBeUndefined();
    expect(submitRefusal(OPEN, [{ number: 1, status: 'denied', reapplyAfter: NOW }], NOW)).toBeUndefined();
  });
});

describe('answersFor', () => {
  const questions = [
    { id: 'a', type: 'short', label: 'A?', required: true },
    { id: 'b', type: 'paragraph', label: 'B?', required: false },
  ];
  it('takes type and label from the questions, in the form\'s order', () => {
    expect(answersFor(questions, [{ id: 'b', text: 'bee' }, { id: 'a', text: 'ay' }])).toEqual([
      { id: 'a', type: 'short', label: 'A?', text: 'ay' },
      { id: 'b', type: 'paragraph', label: 'B?', text: 'bee' },
    ]);
    expect(answersFor(questions, [{ id: 'a', text: 'ay' }])).toHaveLength(1);
  });
  it('refuses unknown, repeated and missing required answers', () => {
    expect(answersFor(questions, [{ id: 'a', text: 'x' }, { id: 'c', text: 'x' }])).toMatchObject({ code: 'INVALID_ANSWERS' });
    expect(answersFor(questions, [{ id: 'a', text: 'x' }, { id: 'a', text: 'y' }])).toMatchObject({ code: 'INVALID_ANSWERS' });
    expect(answersFor(questions, [{ id: 'b', text: 'x' }])).toMatchObject({ code: 'INVALID_ANSWERS' });
    expect(answersFor(questions, [{ id: 'a', text: '  ' }])).toMatchObject({ code: 'INVALID_ANSWERS' });
  });
});

describe('decisions and status changes', () => {
  it('only pending, interview and hold are decidable', () => {
    expect(['pending', 'interview', 'hold', 'accepted', 'denied', 'withdrawn'].filter((s) => isDecidable(s as never))).toEqual(['pending', 'interview', 'hold']);
  });
  it('the re-apply date follows a denial only', () => {
    expect(reapplyAfter('denied', NOW, 3600)).toEqual(new Date(NOW.getTime() + HOUR));
    expect(reapplyAfter('accepted', NOW, 3600)).toBeNull();
    expect(reapplyAfter('denied', NOW, null)).toBeNull();
  });
  it('moves only open submissions, and never to the status they have', () => {
    expect(statusChangeRefusal('pending', 'interview')).toBeUndefined();
    expect(statusChangeRefusal('hold', 'withdrawn')).toBeUndefined();
    expect(statusChangeRefusal('hold', 'hold')).toBeDefined();
    expect(statusChangeRefusal('accepted', 'hold')).toBeDefined();
    expect(statusChangeRefusal('withdrawn', 'interview')).toBeDefined();
  });
});

describe('formProblem', () => {
  const q = { id: 'a', type: 'short', label: 'A', required: true };
  it('checks question count, ids, types and the window', () => {
    expect(formProblem({ questions: [q], opensAt: null, closesAt: null })).toBeUndefined();
    expect(formProblem({ questions: [], opensAt: null, closesAt: null })).toBeDefined();
    expect(formProblem({ questions: [q, q], opensAt: null, closesAt: null })).toBeDefined();
    expect(formProblem({ questions: [{ ...q, type: 'essay' }], opensAt: null, closesAt: null })).toBeDefined();
    expect(formProblem({ questions: [q], opensAt: NOW, closesAt: NOW })).toBeDefined();
  });
});

describe('snowflakeCreatedAt', () => {
  it('reads the creation time from the id', () => {
    expect(snowflakeCreatedAt('175928847299117063').toISOString()).toBe('2016-04-30T11:18:25.796Z');
  });
});
