// An agent whose function tool names no function of the project stops the start, naming the file and key
// (functions are discovered apart from the project, so the agents part checks it).
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProject } from '../../project/project-loader';
import { checkFunctionTools } from './agents';

const FIXTURE = resolve(import.meta.dirname, '../../../../e2e/fixtures/agents/base44');

describe('checkFunctionTools', () => {
  it('accepts the functions the project has and names the one it lacks', async () => {
    const agents = (await loadProject(FIXTURE)).agents?.agents ?? new Map();
    expect(() => checkFunctionTools(agents.values(), ['whoami'])).not.toThrow();
    expect(() => checkFunctionTools(agents.values(), [])).toThrow(
      'agents/task_helper.jsonc: tool_configs.2.function_name: the project has no function "whoami"',
    );
  });
});
