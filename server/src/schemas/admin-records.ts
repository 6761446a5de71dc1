import { z } from 'zod';
import { EntityParamsSchema } from './entities';

/** MAX_RECORD_ID_LENGTH is the longest record id the console's record routes take (the entity routes' bound). */
const MAX_RECORD_ID_LENGTH = 128;
/** MAX_DELETE_IDS bounds one delete-selected: a page of the console's grid is 50 rows, 1,000 is ample. */
export const MAX_DELETE_IDS = 1000;

const recordId = z.string().min(1).max(MAX_RECORD_ID_LENGTH, `at most ${MAX_RECORD_ID_LENGTH} characters`);

/** AdminRecordParamsSchema is `/admin/entities/:entity/records/:id`. */
export const AdminRecordParamsSchema = EntityParamsSchema.extend({ id: recordId });

/** DeleteRecordsSchema is the body of the console's delete: the selected ids. */
export const DeleteRecordsSchema = z.object(
  {
    ids: z
      .array(recordId, { error: 'must be a list of record ids' })
      .min(1, 'must name at least one record')
      .max(MAX_DELETE_IDS, `at most ${MAX_DELETE_IDS} records at once`),
  },
  { error: 'The body must be a JSON object: {"ids": [...]}' },
);
