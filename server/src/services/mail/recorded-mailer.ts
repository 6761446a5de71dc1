// Each send's outcome goes to mail_log (for the console's mails-per-day chart and the last mails' status).
// Recording never fails a send: a mail that went out is not reported as failed because its row did not.
import type { MailLogStore } from '../../store/mail-log-store';
import type { Mailer } from './mailer';

/** recordedMailer wraps mailer so that every send of appId's mail is recorded, sent or failed. */
export function recordedMailer(
  mailer: Mailer,
  deps: {
    appId: string;
    transport: 'smtp' | 'outbox';
    store: MailLogStore;
    onRecordError(error: unknown): void;
  },
): Mailer {
  const record = (ok: boolean, error: string | null) =>
    deps.store
      .insert({ app_id: deps.appId, ok, transport: deps.transport, error })
      .catch((failure: unknown) => deps.onRecordError(failure));
  return {
    describe: () => mailer.describe(),
    async send(message) {
      try {
        await mailer.send(message);
      } catch (error) {
        await record(false, (error instanceof Error ? error.message : String(error)).slice(0, 300));
        throw error;
      }
      await record(true, null);
    },
  };
}
