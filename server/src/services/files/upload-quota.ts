// What one upload may be, and whether the caller and the app still have room today (issue 18, item 7):
// anonymous uploads are opt-in and smaller; each caller (a user, or an anonymous IP) has a share of bytes
// per UTC day; each app has a total. A share is checked before the body is read and charged with the
// stored size after, so the upload that crosses it is kept (it is bounded by the per-file limit).
import { StorageFullError, TooManyRequestsError } from '../../lib/errors';
import type { Caller } from '../../rules/caller';
import type { UsageCounter } from '../limits/usage-counter';

/** UploadLimits are the FILE_* limits on uploads, in bytes. */
export interface UploadLimits {
  maxBytes: number;
  anonymousMaxBytes: number;
  userDailyBytes: number;
  anonymousDailyBytes: number;
  appMaxBytes: number;
}

/** UploadAllowance is what one admitted upload may be, and whose share it spends. */
export interface UploadAllowance {
  maxBytes: number;
  /** setting names the limit maxBytes comes from (for the 413's message). */
  setting: 'FILE_MAX_MB' | 'FILE_ANONYMOUS_MAX_MB';
  /** shareKey is the daily share the upload spends (null: the service role has none). */
  shareKey: string | null;
}

/** APP_TOTAL_REFRESH_MS is how old an app's total may grow before it is summed again (others' uploads). */
const APP_TOTAL_REFRESH_MS = 30_000;

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 100) / 100} MB`;

/** createUploadQuota admits uploads against the per-caller daily shares and the per-app total. */
export function createUploadQuota(deps: {
  limits: UploadLimits;
  usage: UsageCounter;
  totalBytes: (appId: string) => Promise<number>;
  now?: () => number;
}) {
  const { limits, usage } = deps;
  const now = deps.now ?? Date.now;
  const totals = new Map<string, { bytes: number; readAt: number }>();

  async function appTotal(appId: string): Promise<number> {
    const known = totals.get(appId);
    if (known && now() - known.readAt < APP_TOTAL_REFRESH_MS) return known.bytes;
    const bytes = await deps.totalBytes(appId);
    totals.set(appId, { bytes, readAt: now() });
    return bytes;
  }

  return {
    /** admit says what caller (from ip) may upload to appId now, or throws 429 (daily share) / 507 (app full). */
    async admit(appId: string, caller: Caller, ip: string): Promise<UploadAllowance> {
      if ((await appTotal(appId)) >= limits.appMaxBytes) {
        throw new StorageFullError(
          `This app has used all the storage this server gives it (${megabytes(limits.appMaxBytes)}, FILE_APP_MAX_MB): delete files or ask the operator to raise it`,
        );
      }
      if (caller.kind === 'service')
        return { maxBytes: limits.maxBytes, setting: 'FILE_MAX_MB', shareKey: null };
      const anonymous = caller.kind === 'anonymous';
      const shareKey = anonymous ? `uploads:${appId}:ip:${ip}` : `uploads:${appId}:user:${caller.user.id}`;
      const share = anonymous ? limits.anonymousDailyBytes : limits.userDailyBytes;
      if ((await usage.used(shareKey)) >= share) {
        const setting = anonymous ? 'FILE_ANONYMOUS_DAILY_MB' : 'FILE_USER_DAILY_MB';
        throw new TooManyRequestsError(
          `You have uploaded ${megabytes(share)} today, the most one ${anonymous ? 'visitor' : 'user'} may (${setting}): try again after midnight UTC`,
          usage.secondsToReset(),
        );
      }
      return anonymous && limits.anonymousMaxBytes < limits.maxBytes
        ? { maxBytes: limits.anonymousMaxBytes, setting: 'FILE_ANONYMOUS_MAX_MB', shareKey }
        : { maxBytes: limits.maxBytes, setting: 'FILE_MAX_MB', shareKey };
    },
    /** charge counts a stored upload of size bytes against its share and its app's total. */
    async charge(appId: string, allowance: UploadAllowance, size: number): Promise<void> {
      const known = totals.get(appId);
      if (known) known.bytes += size;
      if (allowance.shareKey) await usage.charge(allowance.shareKey, size);
    },
  };
}

export type UploadQuota = ReturnType<typeof createUploadQuota>;
