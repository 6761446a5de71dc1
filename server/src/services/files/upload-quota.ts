// What one upload may be, and whether the caller and the app still have room today (issue 18, item 7):
// anonymous uploads are opt-in and smaller; each caller (a user, or an anonymous IP) has a share of bytes
// per UTC day; each app has a total. An admitted upload reserves its largest size on both before its body
// is read (so uploads sent side by side cannot all pass at once) and is settled with its stored size after;
// the upload that crosses a share is kept (it is bounded by the per-file limit).
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
  /** settled is set once the reservation was settled (settling twice is a no-op). */
  settled: boolean;
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

  const refuseShare = (anonymous: boolean, share: number) => {
    const setting = anonymous ? 'FILE_ANONYMOUS_DAILY_MB' : 'FILE_USER_DAILY_MB';
    return new TooManyRequestsError(
      `You have uploaded ${megabytes(share)} today, the most one ${anonymous ? 'visitor' : 'user'} may (${setting}): try again after midnight UTC`,
      usage.secondsToReset(),
    );
  };

  return {
    /** admit reserves what caller (from ip) may upload to appId now, or throws 429 (daily share) / 507 (app full). */
    async admit(appId: string, caller: Caller, ip: string): Promise<UploadAllowance> {
      const before = await appTotal(appId);
      if (before >= limits.appMaxBytes) {
        throw new StorageFullError(
          `This app has used all the storage this server gives it (${megabytes(limits.appMaxBytes)}, FILE_APP_MAX_MB): delete files or ask the operator to raise it`,
        );
      }
      const anonymous = caller.kind === 'anonymous';
      const small = anonymous && limits.anonymousMaxBytes < limits.maxBytes;
      const maxBytes = small ? limits.anonymousMaxBytes : limits.maxBytes;
      const setting = small ? 'FILE_ANONYMOUS_MAX_MB' : 'FILE_MAX_MB';
      let shareKey: string | null = null;
      if (caller.kind !== 'service') {
        shareKey = anonymous ? `uploads:${appId}:ip:${ip}` : `uploads:${appId}:user:${caller.user.id}`;
        const share = anonymous ? limits.anonymousDailyBytes : limits.userDailyBytes;
        // Reserved first, then checked: of uploads arriving together, only those that fit pass.
        const after = await usage.charge(shareKey, maxBytes);
        if (after - maxBytes >= share) {
          await usage.charge(shareKey, -maxBytes);
          throw refuseShare(anonymous, share);
        }
      }
      const total = totals.get(appId);
      if (total) total.bytes += maxBytes;
      return { maxBytes, setting, shareKey, settled: false };
    },
    /** settle replaces an upload's reservation with what it stored (0 when it stored nothing). */
    async settle(appId: string, allowance: UploadAllowance, size: number): Promise<void> {
      if (allowance.settled) return;
      allowance.settled = true;
      const total = totals.get(appId);
      if (total) total.bytes = Math.max(0, total.bytes + size - allowance.maxBytes);
      if (allowance.shareKey) await usage.charge(allowance.shareKey, size - allowance.maxBytes);
    },
  };
}

export type UploadQuota = ReturnType<typeof createUploadQuota>;
