import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useConsoleSession } from '../../components/console-context';
import { EmptyState, ErrorState, LoadingState, PageHeading } from '../../components/page-states';
import { BUTTON } from '../../components/sign-in-screen';
import { AGENTS_KEY, fetchAgents, type AgentTool, type ConsoleAgent } from './agents-api';
import { ConversationBrowser } from './conversation-browser';
import { TestChat } from './test-chat';

const toolText = (tool: AgentTool) =>
  tool.kind === 'entity'
    ? `${tool.entity}: ${tool.operations.join(', ')}`
    : `function ${tool.function}${tool.description ? ` (${tool.description})` : ''}`;

/** AgentsPage shows the project's agents (each with a test chat) and the conversation browser. */
export function AgentsPage() {
  const { api } = useConsoleSession();
  const agents = useQuery({ queryKey: AGENTS_KEY, queryFn: () => fetchAgents(api) });
  return (
    <>
      <PageHeading>Agents</PageHeading>
      <p className="mt-2 text-gray-300">The project’s agents as its agents/ folder declares them.</p>
      {agents.isPending && <LoadingState what="agents" />}
      {agents.isError && <ErrorState error={agents.error} retry={() => void agents.refetch()} />}
      {agents.data?.length === 0 && (
        <EmptyState>This project has no agents (its agents/ folder is empty).</EmptyState>
      )}
      {agents.data && agents.data.length > 0 && (
        <>
          <ul aria-label="Agents" className="mt-4 flex flex-col gap-4">
            {agents.data.map((agent) => (
              <AgentCard key={agent.name} agent={agent} />
            ))}
          </ul>
          <ConversationBrowser agents={agents.data} />
        </>
      )}
    </>
  );
}

function AgentCard({ agent }: { agent: ConsoleAgent }) {
  const [chatting, setChatting] = useState(false);
  return (
    <li className="rounded-lg border border-royal-600 p-4">
      <h2 className="font-mono text-xl font-semibold text-gold-100">{agent.name}</h2>
      {agent.description && <p className="mt-1">{agent.description}</p>}
      <p className="mt-1 text-sm break-all text-gray-300">
        {agent.file} · model {agent.model ?? 'automatic'}
      </p>
      <h3 className="mt-3 font-semibold text-gold-100">Instructions</h3>
      <p className="mt-1 break-words whitespace-pre-wrap">{agent.instructions}</p>
      <h3 className="mt-3 font-semibold text-gold-100">Tools</h3>
      {agent.tools.length === 0 ? (
        <p className="mt-1 text-gray-300">None: the agent only talks.</p>
      ) : (
        <ul aria-label={`Tools of ${agent.name}`} className="mt-1 list-disc pl-5">
          {agent.tools.map((tool) => (
            <li key={toolText(tool)} className="break-words">
              {toolText(tool)}
            </li>
          ))}
        </ul>
      )}
      {agent.skills.length > 0 && (
        <>
          <h3 className="mt-3 font-semibold text-gold-100">Skills</h3>
          <ul className="mt-1 list-disc pl-5">
            {agent.skills.map((skill) => (
              <li key={skill.name}>
                <span className="font-mono">{skill.name}</span>
                {skill.description && <>: {skill.description}</>}
              </li>
            ))}
          </ul>
        </>
      )}
      {chatting ? (
        <TestChat agent={agent.name} />
      ) : (
        <button
          type="button"
          onClick={() => setChatting(true)}
          className={`${BUTTON} mt-4`}
          aria-label={`Test chat with ${agent.name}`}
        >
          Test chat
        </button>
      )}
    </li>
  );
}
