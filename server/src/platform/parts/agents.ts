// Agents: the project's agents and skills, conversations stored in the database, turns that call the LLM
// with the agent's tools (entities and functions, run as the caller), the `/agent-conversations/{id}`
// rooms and the pushes of each step. A turn that a dead process left running is ended at start (one
// instance) or by the lease sweep (several instances on one database).
import type { AgentDef } from '../../project/agent-loader';
import { ProjectError } from '../../project/project-files';
import { registerAdminAgentRoutes } from '../../routes/admin-agents';
import { registerAgentsRoutes } from '../../routes/agents';
import { createAgentsConsole } from '../../services/admin/agents-console';
import { agentConversationRooms, startAgentPushes } from '../../services/agents/agent-pushes';
import { createAgentToolboxes } from '../../services/agents/agent-tools';
import { createAgentTurns } from '../../services/agents/agent-turns';
import { createAgentsService, type AgentsService } from '../../services/agents/agents-service';
import { createConversationWatchers } from '../../services/agents/conversation-watchers';
import { functionToolCaller } from '../../services/agents/function-tool-calls';
import type { SocketIdentities } from '../../services/delivery/socket-identities';
import type { EntitiesService } from '../../services/entities/entities-service';
import type { FunctionsService } from '../../services/functions/functions-service';
import type { LlmService } from '../../services/llm/llm-service';
import { createAgentBrowserStore } from '../../store/agent-browser-store';
import { createAgentConversationsStore } from '../../store/agent-conversations-store';
import type { Part, Shared } from './part';

/** LEASE_MS is how long a turn's lease lasts unrenewed: a dead process's turn ends within about this. */
const LEASE_MS = 30_000;
/** MAX_TEST_CHAT_STREAMS bounds the console's live test chats one instance feeds. */
const MAX_TEST_CHAT_STREAMS = 100;

export interface AgentsPart extends Part {
  agents: AgentsService;
}

/** checkFunctionTools stops the start when an agent's function tool names no function of the project. */
export function checkFunctionTools(agents: Iterable<AgentDef>, functionNames: readonly string[]): void {
  for (const agent of agents) {
    agent.tools.forEach((tool, index) => {
      if (tool.kind === 'function' && !functionNames.includes(tool.function)) {
        throw new ProjectError(
          `${agent.file}: tool_configs.${index}.function_name: the project has no function "${tool.function}"`,
        );
      }
    });
  }
}

/** buildAgentsPart builds conversations and turns on the entities, LLM and functions services. */
export async function buildAgentsPart(
  shared: Shared,
  entities: { entities: EntitiesService; socketIdentities: SocketIdentities },
  llm: { llm: LlmService },
  functions: { service: FunctionsService },
): Promise<AgentsPart> {
  const { config, project, logger } = shared;
  const definitions = project.agents ?? { agents: new Map(), skills: new Map() };
  checkFunctionTools(definitions.agents.values(), functions.service.names());
  const store = createAgentConversationsStore(shared.db);
  const watchers = createConversationWatchers(MAX_TEST_CHAT_STREAMS);
  const publish = startAgentPushes({
    hub: shared.realtime.hub,
    identities: entities.socketIdentities,
    log: logger,
    onPush: watchers.notify,
  });
  const turns = createAgentTurns({
    store,
    llm: llm.llm,
    toolboxOf: createAgentToolboxes({
      entities: entities.entities,
      project,
      skills: definitions.skills,
      callFunction: functionToolCaller(functions.service),
    }),
    skills: definitions.skills,
    publish,
    limits: {
      maxSteps: config.AGENT_MAX_STEPS,
      turnTimeoutMs: config.AGENT_TURN_TIMEOUT_MS,
      contextTokens: config.AGENT_CONTEXT_TOKENS,
      leaseMs: LEASE_MS,
    },
    sharedDatabase: Boolean(config.REDIS_URL),
    log: logger,
  });
  const recovered = await turns.recoverAbandoned(true);
  if (recovered > 0)
    logger.warn({ conversations: recovered }, 'ended agent turns a stopped server left running');
  const agents = createAgentsService({
    agents: definitions.agents,
    store,
    turns,
    leaseMs: LEASE_MS,
    limiter: shared.limiter,
  });
  return {
    name: 'agents',
    agents,
    rooms: [agentConversationRooms((appId, id) => agents.ownerOf(appId, id))],
    routes: (app, { guard }) => {
      registerAgentsRoutes(app, { guard, agents });
      // The console's Agents page (admin-only) sits with the conversations it reads and the turns it runs.
      registerAdminAgentRoutes(app, {
        guard,
        console: createAgentsConsole({
          agents: definitions.agents,
          skills: definitions.skills,
          conversations: store,
          browser: createAgentBrowserStore(shared.db),
          service: agents,
          watchers,
        }),
      });
    },
    close: () => turns.close(),
  };
}
