import type { ConsoleEntity } from './console-entity';

// The entity's schema and rules, readably: one row per field, one per rule, and the raw JSON folded away.

interface FieldSchema {
  type?: unknown;
  enum?: unknown[];
  default?: unknown;
}

const show = (value: unknown) => (value === undefined ? '' : JSON.stringify(value));

/** ruleRows are [where, operation, rule] for the entity's rls and each field's. */
function ruleRows(rules: ConsoleEntity['rules']): [string, string, string][] {
  if (!rules) return [];
  const rows: [string, string, string][] = [];
  const add = (where: string, block: unknown) => {
    for (const [op, rule] of Object.entries((block ?? {}) as Record<string, unknown>)) {
      rows.push([where, op, show(rule)]);
    }
  };
  add('Rows', rules.rls);
  for (const [field, block] of Object.entries((rules.fields ?? {}) as Record<string, unknown>)) {
    add(`Field ${field}`, block);
  }
  return rows;
}

const CELL = 'py-1 pr-6 align-top';

/** SchemaView shows entity's fields (name, type, required, enum, default) and its rules. */
export function SchemaView({ entity }: { entity: ConsoleEntity }) {
  const properties = (entity.schema.properties ?? {}) as Record<string, FieldSchema>;
  const required = new Set((entity.schema.required ?? []) as string[]);
  const rules = ruleRows(entity.rules);
  return (
    <section aria-labelledby="schema-heading" className="mt-8">
      <h2 id="schema-heading" className="text-xl font-semibold text-gold-100">
        Schema and rules
      </h2>
      <div
        role="region"
        aria-label={`Fields of ${entity.name}`}
        tabIndex={0}
        className="mt-2 overflow-x-auto"
      >
        <table className="min-w-full text-left text-sm">
          <caption className="sr-only">Fields of {entity.name}</caption>
          <thead>
            <tr className="text-gray-300">
              {['Field', 'Type', 'Required', 'Enum', 'Default'].map((label) => (
                <th key={label} scope="col" className={CELL}>
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {Object.entries(properties).map(([name, field]) => (
              <tr key={name} className="border-t border-royal-700">
                <th scope="row" className={`${CELL} font-mono font-normal`}>
                  {name}
                </th>
                <td className={CELL}>
                  {Array.isArray(field.type) ? field.type.join(' | ') : String(field.type ?? '')}
                </td>
                <td className={CELL}>{required.has(name) ? 'Yes' : 'No'}</td>
                <td className={CELL}>{field.enum ? field.enum.map((v) => show(v)).join(', ') : ''}</td>
                <td className={CELL}>{show(field.default)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3 className="mt-4 font-semibold text-gold-100">Rules</h3>
      {rules.length === 0 ? (
        <p className="mt-1 text-gray-300">
          No rules stated: the defaults of docs/entities-and-rules.md apply.
        </p>
      ) : (
        <div
          role="region"
          aria-label={`Rules of ${entity.name}`}
          tabIndex={0}
          className="mt-1 overflow-x-auto"
        >
          <table className="min-w-full text-left text-sm">
            <caption className="sr-only">Rules of {entity.name}</caption>
            <thead>
              <tr className="text-gray-300">
                {['Applies to', 'Operation', 'Rule'].map((label) => (
                  <th key={label} scope="col" className={CELL}>
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rules.map(([where, op, rule]) => (
                <tr key={`${where} ${op}`} className="border-t border-royal-700">
                  <td className={CELL}>{where}</td>
                  <td className={CELL}>{op}</td>
                  <td className={`${CELL} font-mono break-all`}>{rule}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <details className="mt-4">
        <summary className="cursor-pointer">Raw JSON</summary>
        <pre tabIndex={0} className="mt-2 overflow-x-auto rounded bg-royal-900 p-3 text-xs">
          {JSON.stringify({ schema: entity.schema, rules: entity.rules }, null, 2)}
        </pre>
      </details>
    </section>
  );
}
