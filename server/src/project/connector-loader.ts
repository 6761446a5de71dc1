// The project's connectors (`connectors/<type>.jsonc`, or `connectorsDir` of `config.jsonc`): one file per
// type. A bad file, or a type or connector id declared twice, stops the start naming the file and key.
import { join } from 'node:path';
import { ConnectorFileSchema } from '../schemas/connector-files';
import { check, jsoncFiles, ProjectError, readJsonc } from './project-files';

/** ConnectorDef is a declared connector. */
export interface ConnectorDef {
  /** type is the slug, lower case (types are matched without regard to case). */
  type: string;
  scopes: string[];
  connectorId?: string | undefined;
  file: string;
}

/** MAX_CONNECTORS bounds how many files are loaded. */
const MAX_CONNECTORS = 100;

/** loadConnectors reads the project's connectors, by type (none: an empty map). */
export async function loadConnectors(
  dir: string,
  connectorsDir: string,
  shown: (file: string) => string,
): Promise<ReadonlyMap<string, ConnectorDef>> {
  const folder = join(dir, connectorsDir);
  const files = await jsoncFiles(folder);
  if (files.length > MAX_CONNECTORS)
    throw new ProjectError(`${shown(folder)}: holds more than ${MAX_CONNECTORS} connectors`);
  const connectors = new Map<string, ConnectorDef>();
  const ids = new Set<string>();
  for (const fileName of files) {
    const file = join(folder, fileName);
    const parsed = check(ConnectorFileSchema, await readJsonc(file, shown(file)), shown(file));
    const type = parsed.type.toLowerCase();
    if (connectors.has(type)) throw new ProjectError(`${shown(file)}: type: "${type}" is declared twice`);
    if (parsed.connectorId !== undefined) {
      if (ids.has(parsed.connectorId) || connectors.has(parsed.connectorId.toLowerCase())) {
        throw new ProjectError(`${shown(file)}: connectorId: "${parsed.connectorId}" is used twice`);
      }
      ids.add(parsed.connectorId);
    }
    connectors.set(type, {
      type,
      scopes: [...new Set(parsed.scopes)],
      connectorId: parsed.connectorId,
      file: shown(file),
    });
  }
  return connectors;
}
