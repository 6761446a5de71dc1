import type { AgentFile } from '../schemas/agent-files';

// The loaded agents' shapes (agent-loader.ts reads them), apart so the project's types need no loader.

export type AgentOperation = 'create' | 'read' | 'update' | 'delete';

/** AgentTool is one tool configuration: operations on an entity, or a backend function. */
export type AgentTool =
  | { kind: 'entity'; entity: string; operations: AgentOperation[] }
  | { kind: 'function'; function: string; description: string | undefined };

/** AgentDef is one loaded agent. */
export interface AgentDef {
  name: string;
  /** file is the project file, as problems name it. */
  file: string;
  description: string;
  instructions: string;
  /** model is the file's model name (`automatic` or an InvokeLLM name), mapped as InvokeLLM maps it. */
  model: string | undefined;
  tools: AgentTool[];
  /** skills are the names of the skills the agent selected (each exists). */
  skills: string[];
  /** definition is the file as written (unknown keys kept). */
  definition: AgentFile;
}

/** AgentSkill is one `agent-skills/<name>.md`. */
export interface AgentSkill {
  name: string;
  description: string;
  body: string;
}

export interface ProjectAgents {
  agents: ReadonlyMap<string, AgentDef>;
  skills: ReadonlyMap<string, AgentSkill>;
}
