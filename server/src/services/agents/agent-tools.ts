// An agent's tools, as the model sees them and as they run. Entity tools (`{op}_{entity}`) go through the
// entities service as the caller: the same rules, field rules and validation as the caller's own
// requests. Function tools call the backend function with the caller's own Authorization. A skill's body
// is read through `read_skill`. A refused or failed call is an `error` result the model reads; the tool
// itself never throws.
import type { AgentDef, AgentOperation, AgentSkill } from '../../project/agent-loader';
import type { EntityDef } from '../../project/entity-def';
import type { PropertySchema } from '../../schemas/entity-project';
import type { Caller } from '../../rules/caller';
import type { EntitiesService } from '../entities/entities-service';
import type { ToolSpec } from '../llm/chat-turn';

/** MAX_RESULT_CHARS bounds what one tool call hands back to the model (and stores). */
export const MAX_RESULT_CHARS = 20_000;
/** READ_LIMIT is how many records a read returns unless it asks for fewer; READ_MAX the most it may ask. */
const READ_LIMIT = 20;
const READ_MAX = 50;
/** SCHEMA_DEPTH bounds how deep an entity's nested properties go into a tool's schema. */
const SCHEMA_DEPTH = 6;
const SCHEMA_KEYS = [
  'type',
  'description',
  'title',
  'enum',
  'format',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
];

/** CallHeaders are the caller's credentials as its request carried them, for function tools. */
export interface CallHeaders {
  authorization?: string | undefined;
  'on-behalf-of'?: string | undefined;
}

/** ToolCaller is who a tool runs as: the caller's rules identity and its credentials. */
export interface ToolCaller {
  appId: string;
  caller: Caller;
  headers: CallHeaders;
  signal: AbortSignal;
}

/** FunctionCaller calls a backend function with a JSON body as the caller would: status and text. */
export type FunctionCaller = (
  name: string,
  body: unknown,
  as: Pick<ToolCaller, 'caller' | 'headers' | 'signal'>,
) => Promise<{ status: number; text: string }>;

/** ToolResult is a finished call: whether it succeeded and what the model reads (a JSON string). */
export interface ToolResult {
  ok: boolean;
  results: string;
}

/** AgentToolbox is one agent's tools: their specs for the model, and the runner. */
export interface AgentToolbox {
  specs: ToolSpec[];
  run(name: string, argumentsString: string, as: ToolCaller): Promise<ToolResult>;
}

type Json = Record<string, unknown>;

/** toolSchemaOf is a property as a tool parameter: the JSON Schema keys a model reads, nothing else. */
function toolSchemaOf(property: PropertySchema, depth = 0): Json {
  const schema: Json = {};
  for (const key of SCHEMA_KEYS) if (property[key] !== undefined) schema[key] = property[key];
  if (depth >= SCHEMA_DEPTH) return schema;
  if (property.items) schema.items = toolSchemaOf(property.items, depth + 1);
  if (property.properties) {
    schema.properties = Object.fromEntries(
      Object.entries(property.properties).map(([name, child]) => [name, toolSchemaOf(child, depth + 1)]),
    );
  }
  return schema;
}

function fieldsOf(entity: EntityDef): Json {
  return Object.fromEntries(
    Object.entries(entity.properties).map(([name, property]) => [name, toolSchemaOf(property)]),
  );
}

const toolName = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);

function entitySpec(entity: EntityDef, op: AgentOperation): ToolSpec {
  const name = `${op}_${entity.name.toLowerCase()}`;
  const fields = fieldsOf(entity);
  switch (op) {
    case 'create':
      return {
        name,
        description: `Create one ${entity.name} record.`,
        parameters: { type: 'object', properties: fields, required: entity.required },
      };
    case 'read':
      return {
        name,
        description: `Read ${entity.name} records: one by id, or a list matching a filter (field: value pairs, or MongoDB-style operators such as {"$gte": 3}).`,
        parameters: {
          type: 'object',
          properties: {
            id: { type: 'string', description: 'The id of one record to read.' },
            query: {
              type: 'object',
              description: 'Filter: field values the records must match.',
              properties: fields,
            },
            sort: { type: 'string', description: 'Field to sort by; a leading "-" sorts descending.' },
            limit: { type: 'integer', minimum: 1, maximum: READ_MAX, description: `At most ${READ_MAX}.` },
          },
        },
      };
    case 'update':
      return {
        name,
        description: `Update one ${entity.name} record: the fields in data replace its values.`,
        parameters: {
          type: 'object',
          properties: { id: { type: 'string' }, data: { type: 'object', properties: fields } },
          required: ['id', 'data'],
        },
      };
    case 'delete':
      return {
        name,
        description: `Delete one ${entity.name} record by id.`,
        parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      };
  }
}

/** bounded is value's JSON, cut to MAX_RESULT_CHARS (saying so) so one result cannot flood the context. */
function bounded(value: unknown): string {
  const text = JSON.stringify(value ?? null);
  return text.length <= MAX_RESULT_CHARS
    ? text
    : JSON.stringify({ truncated: true, partial: text.slice(0, MAX_RESULT_CHARS - 100) });
}

const failure = (message: string): ToolResult => ({
  ok: false,
  results: JSON.stringify({ error: message.slice(0, 2_000) }),
});

function argumentsOf(text: string): Json | null {
  try {
    const value: unknown = JSON.parse(text === '' ? '{}' : text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

type Runner = (args: Json, as: ToolCaller) => Promise<unknown>;

/** createAgentToolboxes builds each agent's toolbox once, on the entities service and the functions. */
export function createAgentToolboxes(deps: {
  entities: EntitiesService;
  project: { entities: ReadonlyMap<string, EntityDef> };
  skills: ReadonlyMap<string, AgentSkill>;
  callFunction: FunctionCaller;
}): (agent: AgentDef) => AgentToolbox {
  const { entities } = deps;

  function entityRunner(entity: string, op: AgentOperation): Runner {
    const id = (args: Json) => (typeof args.id === 'string' ? args.id : '');
    switch (op) {
      case 'create':
        return (args, as) => entities.create(as.appId, entity, as.caller, args);
      case 'read':
        return async (args, as) => {
          if (typeof args.id === 'string' && args.id !== '')
            return entities.get(as.appId, entity, as.caller, args.id);
          const limit =
            typeof args.limit === 'number'
              ? Math.min(Math.max(1, Math.floor(args.limit)), READ_MAX)
              : READ_LIMIT;
          return entities.list(as.appId, entity, as.caller, {
            query: args.query ?? {},
            sort: typeof args.sort === 'string' ? args.sort : undefined,
            limit,
          });
        };
      case 'update':
        return (args, as) => entities.update(as.appId, entity, as.caller, id(args), args.data ?? {});
      case 'delete':
        return (args, as) => entities.remove(as.appId, entity, as.caller, id(args));
    }
  }

  function functionRunner(name: string): Runner {
    return async (args, as) => {
      const { status, text } = await deps.callFunction(name, args, as);
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: the text itself is the answer.
      }
      if (status >= 400) throw new Error(`The function answered HTTP ${status}: ${text.slice(0, 1_000)}`);
      return body;
    };
  }

  return (agent) => {
    const specs: ToolSpec[] = [];
    const runners = new Map<string, Runner>();
    for (const tool of agent.tools) {
      if (tool.kind === 'entity') {
        const entity = deps.project.entities.get(tool.entity);
        if (!entity) continue;
        for (const op of tool.operations) {
          const spec = entitySpec(entity, op);
          specs.push(spec);
          runners.set(spec.name, entityRunner(entity.name, op));
        }
      } else {
        const name = toolName(tool.function);
        specs.push({
          name,
          description: tool.description ?? `Call the backend function ${tool.function} with a JSON body.`,
          parameters: { type: 'object', additionalProperties: true },
        });
        runners.set(name, functionRunner(tool.function));
      }
    }
    if (agent.skills.length > 0) {
      specs.push({
        name: 'read_skill',
        description: 'Read the full text of one of your skills.',
        parameters: {
          type: 'object',
          properties: { name: { type: 'string', enum: agent.skills } },
          required: ['name'],
        },
      });
      runners.set('read_skill', async (args) => {
        const skill =
          typeof args.name === 'string' && agent.skills.includes(args.name)
            ? deps.skills.get(args.name)
            : undefined;
        if (!skill)
          throw new Error(
            `No skill named ${String(args.name).slice(0, 100)}: choose one of ${agent.skills.join(', ')}`,
          );
        return skill.body;
      });
    }
    return {
      specs,
      async run(name, argumentsString, as) {
        const runner = runners.get(name);
        if (!runner) return failure(`There is no tool named ${name.slice(0, 100)}`);
        const args = argumentsOf(argumentsString);
        if (!args) return failure('The arguments are not a JSON object');
        try {
          return { ok: true, results: bounded(await runner(args, as)) };
        } catch (error) {
          return failure(error instanceof Error ? error.message : String(error));
        }
      },
    };
  };
}
