// The console's Agents page: every agent of the project with its instructions, tools and skills; the
// conversation browser (any user's conversations, read-only, with their tool calls and usage); and the test
// chat, a real turn in a conversation of the signed-in admin marked `console_test`, whose steps a
// server-sent-events stream hands on as the turn pushes them (conversation-watchers.ts).
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from '../../lib/errors';
import type { AgentDef, AgentSkill } from '../../project/agent-loader';
import type { Caller } from '../../rules/caller';
import type { AdminConversationsQuery } from '../../schemas/admin-agents';
import type { AgentBrowserStore } from '../../store/agent-browser-store';
import type { AgentConversationsStore } from '../../store/agent-conversations-store';
import type { CallHeaders } from '../agents/agent-tools';
import type { AgentsService } from '../agents/agents-service';
import type { ConversationWatchers } from '../agents/conversation-watchers';
import { conversationOf, type AgentMessage } from '../agents/conversation-view';

/** TEST_MARK is the metadata key of the console's test conversations. */
export const TEST_MARK = 'console_test';

export interface AgentsConsoleDeps {
  agents: ReadonlyMap<string, AgentDef>;
  skills: ReadonlyMap<string, AgentSkill>;
  conversations: Pick<AgentConversationsStore, 'find' | 'messages'>;
  browser: AgentBrowserStore;
  service: Pick<AgentsService, 'createConversation' | 'addMessage'>;
  watchers: ConversationWatchers;
}

/** cursorOf is a row's keyset position, as the next page's `before`. */
const cursorOf = (row: { created_date: string; id: string }) => `${row.created_date}|${row.id}`;

// The times PostgreSQL reads as ISO strings: years 1–9999 (it has no year 0, and toISOString writes
// `+010000-…` past 9999). Date.UTC maps years 0–99 to 1900–1999, so the bounds are parsed.
const EARLIEST_CURSOR_TIME = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST_CURSOR_TIME = Date.parse('9999-12-31T23:59:59.999Z');

/** positionOf reads a `before` cursor (400 when it is not one). */
function positionOf(before: string): { createdDate: string; id: string } {
  const split = before.indexOf('|');
  const createdDate = before.slice(0, split);
  const at = Date.parse(createdDate);
  if (split < 1 || Number.isNaN(at) || at < EARLIEST_CURSOR_TIME || at > LATEST_CURSOR_TIME) {
    throw new InvalidInputError('before: must be the cursor of a listed conversation');
  }
  // As an ISO string: what Date.parse accepts ('1', say) is not always what PostgreSQL casts.
  return { createdDate: new Date(at).toISOString(), id: before.slice(split + 1) };
}

/** createAgentsConsole returns the Agents page's reads and the test chat; see the file comment. */
export function createAgentsConsole(deps: AgentsConsoleDeps) {
  async function existing(appId: string, id: string) {
    const row = await deps.conversations.find(appId, id);
    if (!row) throw new NotFoundError(`Conversation ${id} not found`);
    return row;
  }

  return {
    /** list is every agent, by name, as the project declares it. */
    list() {
      return [...deps.agents.values()]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((agent) => ({
          name: agent.name,
          file: agent.file,
          description: agent.description,
          instructions: agent.instructions,
          model: agent.model ?? null,
          tools: agent.tools,
          skills: agent.skills.map((name) => ({
            name,
            description: deps.skills.get(name)?.description ?? '',
          })),
        }));
    },

    /** conversations is one page of any user's conversations, newest first, with `next` for the following one. */
    async conversations(appId: string, query: AdminConversationsQuery) {
      const rows = await deps.browser.summaries(appId, {
        agentName: query.agent,
        user: query.user,
        before: query.before === undefined ? undefined : positionOf(query.before),
        limit: query.limit + 1,
      });
      const items = rows.slice(0, query.limit).map((row) => ({ ...row, cursor: cursorOf(row) }));
      const last = items.at(-1);
      return { items, next: rows.length > query.limit && last ? last.cursor : null };
    },

    /** conversation is one conversation with every message, whoever made it. */
    async conversation(appId: string, id: string) {
      const row = await existing(appId, id);
      const messages = (await deps.conversations.messages(id)) as AgentMessage[];
      return { ...conversationOf(row, messages), turn_running: row.turn_running };
    },

    /** startTest opens a test conversation with agentName, owned by caller (the signed-in admin). */
    startTest(appId: string, caller: Caller, agentName: string) {
      return deps.service.createConversation(appId, caller, {
        agent_name: agentName,
        metadata: { [TEST_MARK]: true },
      });
    },

    /** sendTest adds caller's message to one of its own test conversations, which starts the turn. */
    async sendTest(appId: string, caller: Caller, headers: CallHeaders, id: string, content: string) {
      const row = await existing(appId, id);
      if (row.metadata[TEST_MARK] !== true) {
        throw new ConflictError(
          'Only the console’s test conversations take messages here: users’ are read-only',
        );
      }
      const ownerId = caller.kind === 'user' ? caller.user.id : null;
      if (row.created_by_id !== ownerId)
        throw new ForbiddenError('This test conversation is another admin’s');
      return deps.service.addMessage(appId, caller, headers, id, { role: 'user', content });
    },

    /** watch checks the conversation exists, then calls listener with each of its pushes (null: full). */
    async watch(appId: string, id: string, listener: (data: string) => void) {
      await existing(appId, id);
      return deps.watchers.watch(appId, id, listener);
    },
  };
}

export type AgentsConsole = ReturnType<typeof createAgentsConsole>;
