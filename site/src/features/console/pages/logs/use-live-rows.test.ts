// The live rows the Logs page keeps are those its endpoint would list under the same filters.
import { describe, expect, it } from 'vitest';
import { concatRows, type LogRows } from './logs-api';
import { matching } from './use-live-rows';

const call = (id: string, fn: string, status: number, at: string) => ({
  id,
  function: fn,
  request_id: `req-${id}`,
  trigger: 'http',
  user_id: id === '2' ? 'u-2' : null,
  status,
  duration_ms: 1,
  output_dropped: 0,
  created_date: at,
});
const ids = (rows: LogRows) => rows.items.map((row) => row.id);

describe('matching', () => {
  it('keeps function calls by function, status, request id, user and time range', () => {
    const rows: LogRows = {
      tab: 'functions',
      items: [
        call('1', 'a', 200, '2026-11-20T10:00:00.000Z'),
        call('2', 'a', 500, '2026-11-20T11:00:00.000Z'),
        call('3', 'b', 500, '2026-11-20T12:00:00.000Z'),
      ],
      next: null,
    };
    expect(ids(matching(rows, {}))).toEqual(['1', '2', '3']);
    expect(ids(matching(rows, { function: 'a', status: 'error' }))).toEqual(['2']);
    expect(ids(matching(rows, { status: 'ok' }))).toEqual(['1']);
    expect(ids(matching(rows, { request_id: 'req-3' }))).toEqual(['3']);
    expect(ids(matching(rows, { user: 'u-2' }))).toEqual(['2']);
    expect(ids(matching(rows, { from: '2026-11-20T10:30:00.000Z', to: '2026-11-20T12:00:00.000Z' }))).toEqual(
      ['2'],
    );
  });

  it('keeps page views by page and viewer id, and audit rows by actor id or email', () => {
    const views: LogRows = {
      tab: 'page-views',
      items: [
        { id: '1', page: 'Home', user_id: 'u1', referrer: null, created_date: '2026-11-20T10:00:00.000Z' },
        { id: '2', page: 'Shop', user_id: 'u2', referrer: null, created_date: '2026-11-20T10:00:00.000Z' },
      ],
      next: null,
    };
    expect(ids(matching(views, { page: 'Home' }))).toEqual(['1']);
    expect(ids(matching(views, { user: 'u2' }))).toEqual(['2']);
    const entry = (id: string, actor: unknown) => ({
      id,
      actor,
      action: 'secret.set',
      target: 'secret:X',
      before: null,
      after: null,
      logged_at: '2026-11-20T10:00:00.000Z',
    });
    const audit: LogRows = {
      tab: 'audit',
      items: [
        entry('1', { kind: 'admin', id: 'a1', email: 'one@x.test' }),
        entry('2', { kind: 'cli' }),
        entry('3', 'not an actor'),
      ],
      next: null,
    };
    expect(ids(matching(audit, {}))).toEqual(['1', '2', '3']);
    expect(ids(matching(audit, { user: 'one@x.test' }))).toEqual(['1']);
    expect(ids(matching(audit, { user: 'a1' }))).toEqual(['1']);
    expect(ids(matching(audit, { user: 'cli' }))).toEqual([]);
  });
});

describe('concatRows', () => {
  it("keeps one tab's rows in the lists' order, each id once, and leaves other tabs out", () => {
    const at = '2026-11-20T10:00:00.000Z';
    const live: LogRows = {
      tab: 'functions',
      items: [call('3', 'a', 200, at), call('2', 'a', 200, at)],
      next: null,
    };
    const page: LogRows = {
      tab: 'functions',
      items: [call('2', 'a', 200, at), call('1', 'a', 200, at)],
      next: 'c',
    };
    const other: LogRows = { tab: 'audit', items: [], next: null };
    const joined = concatRows('functions', live, null, other, page);
    expect(joined).toMatchObject({ tab: 'functions', next: null });
    expect(ids(joined)).toEqual(['3', '2', '1']);
    expect(ids(concatRows('page-views', live, page))).toEqual([]);
  });
});
