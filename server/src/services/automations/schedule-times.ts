import { CronExpressionParser } from 'cron-parser';
import type { ScheduledAutomation } from './automation-config';

// When a scheduled automation runs next. All times are UTC. A schedule whose due time passed while no
// server ran runs once when one starts (not once per missed time), then keeps its rhythm.

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const UNIT_MS = { minutes: MINUTE, hours: 60 * MINUTE, days: DAY, weeks: 7 * DAY } as const;

/** ScheduleError is a schedule that cannot be read (a bad cron expression or date), named for start-up. */
export class ScheduleError extends Error {}

function parseDate(text: string, what: string): Date {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw new ScheduleError(`${what} is not a date: ${JSON.stringify(text)}`);
  return date;
}

/** startOf reads `start_time`: an ISO date-time, or `HH:mm` (that time of day, from the anchor's day on). */
function startOf(automation: { start_time?: string | null | undefined }, anchor: Date): Date {
  const text = automation.start_time;
  if (!text) return anchor;
  const clock = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (!clock) return parseDate(text, 'start_time');
  const start = new Date(anchor);
  start.setUTCHours(Number(clock[1]), Number(clock[2]), 0, 0);
  return start;
}

function ended(automation: ScheduledAutomation, next: Date, runs: number): boolean {
  if (automation.schedule_mode === 'one-time') return false;
  if (automation.ends_type === 'after' && runs >= (automation.ends_after_count ?? Infinity)) return true;
  if (automation.ends_type === 'on' && automation.ends_on_date) {
    return next.getTime() > parseDate(automation.ends_on_date, 'ends_on_date').getTime();
  }
  return false;
}

function addMonths(date: Date, months: number, dayOfMonth: number): Date {
  const next = new Date(date);
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(dayOfMonth, lastDay));
  return next;
}

function nextSimple(
  automation: Extract<ScheduledAutomation, { schedule_type: 'simple' }>,
  after: Date,
  anchor: Date,
) {
  const every = automation.repeat_interval ?? 1;
  const start = startOf(automation, anchor);
  if (automation.repeat_unit === 'months') {
    const day = automation.repeat_on_day_of_month ?? start.getUTCDate();
    let candidate = addMonths(start, 0, day);
    // At most a few hundred steps: the interval is at least one month.
    for (let step = 0; candidate.getTime() <= after.getTime() && step < 100_000; step += 1) {
      candidate = addMonths(start, (step + 1) * every, day);
    }
    return candidate;
  }
  const days = automation.repeat_on_days;
  if (automation.repeat_unit === 'weeks' && days && days.length > 0) {
    // The chosen weekdays of every `every`-th week counted from the start's week, at the start's time.
    const weekStart = start.getTime() - start.getUTCDay() * DAY;
    const from = Math.max(after.getTime(), start.getTime() - DAY);
    for (let offset = 0; offset <= 7 * every + 7; offset += 1) {
      const day = new Date(from + offset * DAY);
      day.setUTCHours(start.getUTCHours(), start.getUTCMinutes(), 0, 0);
      const week = Math.floor((day.getTime() - weekStart) / (7 * DAY));
      if (day > after && day >= start && week % every === 0 && days.includes(day.getUTCDay())) return day;
    }
    return null;
  }
  const step = UNIT_MS[automation.repeat_unit] * every;
  if (after.getTime() < start.getTime()) return start;
  const count = Math.floor((after.getTime() - start.getTime()) / step) + 1;
  return new Date(start.getTime() + count * step);
}

/**
 * nextRunTime is when automation runs next after `after`, having run `runs` times; null when it is over.
 * anchor is when the schedule was first registered (a simple repeat without start_time counts from it).
 */
export function nextRunTime(
  automation: ScheduledAutomation,
  after: Date,
  runs: number,
  anchor: Date,
): Date | null {
  let next: Date | null;
  if (automation.schedule_mode === 'one-time') {
    next = runs === 0 ? parseDate(automation.one_time_date, 'one_time_date') : null;
  } else if (automation.schedule_type === 'cron') {
    try {
      next = CronExpressionParser.parse(automation.cron_expression, { currentDate: after, tz: 'UTC' })
        .next()
        .toDate();
    } catch (error) {
      throw new ScheduleError(
        `cron_expression ${JSON.stringify(automation.cron_expression)} is not valid: ${(error as Error).message}`,
      );
    }
  } else {
    next = nextSimple(automation, after, anchor);
  }
  return next && !ended(automation, next, runs) ? next : null;
}
