import { describe, expect, it } from 'vitest';
import { AutomationSchema, type ScheduledAutomation } from './automation-config';
import { nextRunTime, ScheduleError } from './schedule-times';

const anchor = new Date('2026-01-05T09:30:00Z'); // a Monday
const schedule = (fields: Record<string, unknown>) =>
  AutomationSchema.parse({ name: 'a', type: 'scheduled', ...fields }) as ScheduledAutomation;
const iso = (date: Date | null) => date?.toISOString() ?? null;

describe('nextRunTime', () => {
  it('runs a one-time schedule once, even when its date has passed', () => {
    const once = schedule({ schedule_mode: 'one-time', one_time_date: '2026-01-01T00:00:00Z' });
    expect(iso(nextRunTime(once, anchor, 0, anchor))).toBe('2026-01-01T00:00:00.000Z');
    expect(nextRunTime(once, anchor, 1, anchor)).toBeNull();
  });

  it('follows a cron expression in UTC and stops after its count or end date', () => {
    const cron = { schedule_mode: 'recurring', schedule_type: 'cron', cron_expression: '0 */6 * * *' };
    expect(iso(nextRunTime(schedule(cron), anchor, 0, anchor))).toBe('2026-01-05T12:00:00.000Z');
    const twice = schedule({ ...cron, ends_type: 'after', ends_after_count: 2 });
    expect(nextRunTime(twice, anchor, 1, anchor)).not.toBeNull();
    expect(nextRunTime(twice, anchor, 2, anchor)).toBeNull();
    const until = schedule({ ...cron, ends_type: 'on', ends_on_date: '2026-01-05T11:00:00Z' });
    expect(nextRunTime(until, anchor, 0, anchor)).toBeNull();
  });

  it('names a bad cron expression', () => {
    const bad = schedule({ schedule_mode: 'recurring', schedule_type: 'cron', cron_expression: 'every day' });
    expect(() => nextRunTime(bad, anchor, 0, anchor)).toThrow(ScheduleError);
  });

  it('repeats every n minutes, hours or days from the start time', () => {
    const simple = { schedule_mode: 'recurring', schedule_type: 'simple' };
    const every15 = schedule({ ...simple, repeat_unit: 'minutes', repeat_interval: 15 });
    expect(iso(nextRunTime(every15, new Date('2026-01-05T09:31:00Z'), 1, anchor))).toBe(
      '2026-01-05T09:45:00.000Z',
    );
    const daily = schedule({ ...simple, repeat_unit: 'days', start_time: '07:00' });
    expect(iso(nextRunTime(daily, anchor, 0, anchor))).toBe('2026-01-06T07:00:00.000Z');
  });

  it('repeats on chosen weekdays and days of the month', () => {
    const simple = { schedule_mode: 'recurring', schedule_type: 'simple' };
    const weekdays = schedule({
      ...simple,
      repeat_unit: 'weeks',
      repeat_on_days: [3, 5],
      start_time: '08:00',
    });
    expect(iso(nextRunTime(weekdays, anchor, 0, anchor))).toBe('2026-01-07T08:00:00.000Z'); // Wednesday
    const monthly = schedule({ ...simple, repeat_unit: 'months', repeat_on_day_of_month: 31 });
    expect(iso(nextRunTime(monthly, new Date('2026-02-01T00:00:00Z'), 1, anchor))).toBe(
      '2026-02-28T09:30:00.000Z',
    );
  });
});
