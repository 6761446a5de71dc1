import { parse, protocol, type PGlite, type Results } from '@electric-sql/pglite';
import pg from 'pg';

// PGlite's own query() talks to its engine six times per statement (parse, describe the statement, bind,
// describe the portal, execute, sync), each a trip into WASM and through its protocol parser: on a small
// statement that is about a third of the engine thread's time (see bench/src/profile-hot-path.ts). This
// sends the same extended-protocol messages in one buffer, one trip, as a PostgreSQL driver does on a
// socket. Parameters go untyped, as text, converted by node-postgres' own rules, so a statement gets its
// values exactly as it does on PostgreSQL (DATABASE_URL); rows are parsed by PGlite's own parsers.

/** prepareValue is node-postgres' conversion of a JS value to a parameter (text, or a Buffer for bytea). */
const prepareValue = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils
  .prepareValue;

function concat(parts: Uint8Array[]): Uint8Array {
  const message = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    message.set(part, offset);
    offset += part.length;
  }
  return message;
}

/** PreparedStatements is what one engine has prepared: statement names, each parsed once. */
export type PreparedStatements = Set<string>;

/**
 * extendedQuery runs sql with params on pglite in one round trip and returns the rows like pglite.query.
 * syncToFs is false inside a transaction (PGlite writes through at its end, as query() does). With a name,
 * the statement is parsed (and planned) once on its own trip, remembered in prepared, and then only bound.
 */
export async function extendedQuery<T>(
  pglite: PGlite,
  sql: string,
  params: unknown[],
  syncToFs: boolean,
  named?: { name: string; prepared: PreparedStatements },
): Promise<Results<T>> {
  const values = params.map((value) => prepareValue(value) as string | Uint8Array | null);
  if (named && !named.prepared.has(named.name)) {
    // Parsed alone, so that a failing bind can never leave a parsed name this set does not know.
    await pglite.execProtocol(
      concat([protocol.serialize.parse({ name: named.name, text: sql }), protocol.serialize.sync()]),
      { syncToFs: false },
    );
    named.prepared.add(named.name);
  }
  const message = concat([
    ...(named ? [] : [protocol.serialize.parse({ text: sql })]),
    protocol.serialize.bind({ values, ...(named ? { statement: named.name } : {}) }),
    protocol.serialize.describe({ type: 'P' }),
    protocol.serialize.execute({}),
    protocol.serialize.sync(),
  ]);
  const { messages } = await pglite.execProtocol(message, { syncToFs });
  const results = parse.parseResults(messages, pglite.parsers);
  return (results.at(-1) ?? { rows: [], fields: [] }) as Results<T>;
}
