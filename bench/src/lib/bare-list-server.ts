// The bare route `list-uncached` measures us against (issue 28): Fastify, the same `pg` driver with its
// default parsing (stamps into Date), the list's SQL, `Object.assign` per row and Fastify's serializer. No
// auth, rules, validation or logging: what a list costs at the driver's limit. Run as its own process:
// DATABASE_URL and PORT in the environment; prints `listening` when ready.
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });

app.get('/api/apps/:appId/entities/:entity', async (request) => {
  const { appId, entity } = request.params as { appId: string; entity: string };
  const { rows } = await pool.query<{
    id: string;
    data: Record<string, unknown>;
    created_date: Date;
    updated_date: Date;
    created_by: string | null;
    created_by_id: string | null;
  }>(
    `SELECT id, data, created_date, updated_date, created_by, created_by_id FROM entity_records
     WHERE app_id = $1 AND entity = $2 AND created_date > '-infinity'
     ORDER BY created_date DESC, id ASC LIMIT $3 OFFSET $4`,
    [appId, entity, 50, 0],
  );
  return rows.map((row) => {
    const record: Record<string, unknown> = Object.assign({}, row.data);
    record.id = row.id;
    record.created_date = row.created_date;
    record.updated_date = row.updated_date;
    if (row.created_by !== null) record.created_by = row.created_by;
    if (row.created_by_id !== null) record.created_by_id = row.created_by_id;
    return record;
  });
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('listening');
