import type { AnalyticsStore } from '../../store/analytics-store';
import type { AppsService } from '../apps/apps-service';

/** TrackedEvent is one analytics event as the SDK sends it (already validated). */
export interface TrackedEvent {
  event_name: string;
  properties?: Record<string, unknown> | null | undefined;
  timestamp?: string | null | undefined;
  page_url?: string | null | undefined;
  user_id?: string | null | undefined;
  session_id?: string | null | undefined;
}

/** AnalyticsService is the rules for recording analytics events. */
export interface AnalyticsService {
  /** trackBatch stores a batch of events for an existing app, all or nothing. */
  trackBatch(appId: string, events: TrackedEvent[]): Promise<void>;
  /** countEvents returns how many events an app has stored. */
  countEvents(appId: string): Promise<number>;
}

/** createAnalyticsService returns the rules for recording analytics events. */
export function createAnalyticsService(apps: AppsService, store: AnalyticsStore): AnalyticsService {
  return {
    /** trackBatch stores a batch of events for an existing app, all or nothing. */
    async trackBatch(appId: string, events: TrackedEvent[]): Promise<void> {
      await apps.requireApp(appId);
      await store.insertBatch(
        appId,
        events.map((event) => ({
          event_name: event.event_name,
          properties: event.properties ?? null,
          event_time: event.timestamp ?? null,
          page_url: event.page_url ?? null,
          user_id: event.user_id ?? null,
          session_id: event.session_id ?? null,
        })),
      );
    },
    /** countEvents returns how many events an app has stored. */
    countEvents: (appId: string) => store.countByApp(appId),
  };
}
