// The project's agents (`agents/*.jsonc`, or `agentsDir` of `config.jsonc`) and the skills they may select
// (`agent-skills/<name>.md`, front matter `description`). Loaded with the project at start; a problem stops
// the start naming the file and the key. That a function tool names a real function is checked where the
// functions are known (the agents part), since functions are discovered apart from the project.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  AgentFileSchema,
  EntityToolSchema,
  FunctionToolSchema,
  MAX_SKILL_BODY_CHARS,
  SkillFrontMatterSchema,
  type AgentFile,
} from '../schemas/agent-files';
import type { AgentDef, AgentSkill, AgentTool, ProjectAgents } from './agent-def';
import type { EntityDef } from './entity-def';

export type { AgentDef, AgentOperation, AgentSkill, AgentTool, ProjectAgents } from './agent-def';
import { check, jsoncFiles, ProjectError, readJsonc } from './project-files';

/** SKILLS_DIR is the project folder of agent skills. */
export const SKILLS_DIR = 'agent-skills';
/** MAX_AGENTS and MAX_SKILLS bound how many files are loaded. */
const MAX_AGENTS = 200;
const MAX_SKILLS = 500;

/** splitFrontMatter separates a Markdown file's `---` front matter (YAML) from its body. */
export function splitFrontMatter(text: string): { front: string; body: string } | null {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return null;
  return { front: match[1] ?? '', body: text.slice(match[0].length) };
}

async function loadSkills(dir: string, shown: (file: string) => string): Promise<Map<string, AgentSkill>> {
  const names = (await readdir(dir).catch(() => [] as string[]))
    .filter((name) => name.endsWith('.md'))
    .sort();
  if (names.length > MAX_SKILLS)
    throw new ProjectError(`${shown(dir)}: holds more than ${MAX_SKILLS} skills`);
  const skills = new Map<string, AgentSkill>();
  if (names.length === 0) return skills;
  // The YAML parser is loaded only for a project with skills, not at every start.
  const { parse: parseYaml } = await import('yaml');
  for (const fileName of names) {
    const file = join(dir, fileName);
    const text = await readFile(file, 'utf8').catch(() => {
      throw new ProjectError(`${shown(file)}: cannot be read`);
    });
    const parts = splitFrontMatter(text);
    if (!parts)
      throw new ProjectError(`${shown(file)}: must start with front matter (---, description: …, ---)`);
    let front: unknown;
    try {
      front = parseYaml(parts.front, { maxAliasCount: 10 });
    } catch (error) {
      throw new ProjectError(`${shown(file)}: front matter is not valid YAML (${(error as Error).message})`);
    }
    const meta = check(SkillFrontMatterSchema, front ?? {}, `${shown(file)} front matter`);
    const body = parts.body.trim();
    if (body.length > MAX_SKILL_BODY_CHARS) {
      throw new ProjectError(`${shown(file)}: the body must be at most ${MAX_SKILL_BODY_CHARS} characters`);
    }
    const name = fileName.replace(/\.md$/, '');
    skills.set(name, { name, description: meta.description, body });
  }
  return skills;
}

function toolsOf(
  definition: AgentFile,
  entities: ReadonlyMap<string, EntityDef>,
  shown: string,
): AgentTool[] {
  return definition.tool_configs.map((raw, index): AgentTool => {
    const entityTool = EntityToolSchema.safeParse(raw);
    if (entityTool.success) {
      const config = entityTool.data;
      const entity = [...entities.keys()].find(
        (name) => name.toLowerCase() === config.entity_name.toLowerCase(),
      );
      if (!entity) {
        throw new ProjectError(
          `${shown}: tool_configs.${index}.entity_name: the project has no entity "${config.entity_name}"`,
        );
      }
      return { kind: 'entity', entity, operations: [...new Set(config.allowed_operations)] };
    }
    const config = FunctionToolSchema.parse(raw);
    return { kind: 'function', function: config.function_name, description: config.description };
  });
}

/** loadAgents reads the project's agents and skills (none: empty maps), checked against its entities. */
export async function loadAgents(
  dir: string,
  agentsDir: string,
  entities: ReadonlyMap<string, EntityDef>,
  shown: (file: string) => string,
): Promise<ProjectAgents> {
  const skills = await loadSkills(join(dir, SKILLS_DIR), shown);
  const folder = join(dir, agentsDir);
  const files = await jsoncFiles(folder);
  if (files.length > MAX_AGENTS)
    throw new ProjectError(`${shown(folder)}: holds more than ${MAX_AGENTS} agents`);
  const agents = new Map<string, AgentDef>();
  for (const fileName of files) {
    const file = join(folder, fileName);
    const definition = check(AgentFileSchema, await readJsonc(file, shown(file)), shown(file));
    if (agents.has(definition.name)) {
      throw new ProjectError(`${shown(file)}: name: agent "${definition.name}" is declared twice`);
    }
    const unknownSkill = definition.selected_skill_names.find((name) => !skills.has(name));
    if (unknownSkill !== undefined) {
      throw new ProjectError(
        `${shown(file)}: selected_skill_names: no skill "${unknownSkill}" in ${SKILLS_DIR}/ (${unknownSkill}.md)`,
      );
    }
    agents.set(definition.name, {
      name: definition.name,
      file: shown(file),
      description: definition.description ?? '',
      instructions: definition.instructions,
      model: definition.model,
      tools: toolsOf(definition, entities, shown(file)),
      skills: [...new Set(definition.selected_skill_names)],
      definition,
    });
  }
  return { agents, skills };
}
