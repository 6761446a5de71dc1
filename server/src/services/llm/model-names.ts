// Apps name models as the hosted platform knows them (`gemini_3_flash`, `claude_sonnet_4_6`, `gpt_5`…);
// LLM_MODEL_MAP maps those to the provider's models, and anything else gets LLM_MODEL.

/** AUTOMATIC names the platform's default choice, which is LLM_MODEL here. */
const AUTOMATIC = new Set(['', 'automatic', 'default']);

/**
 * createModelNames resolves an app's model name to the provider's; an unknown name falls back to the
 * default and is reported once per name (at most 100 names, so callers cannot flood the log).
 */
export function createModelNames(
  defaultModel: string,
  map: Record<string, string>,
  onUnknown: (name: string, fallback: string) => void,
) {
  const reported = new Set<string>();
  return (name: string | undefined): string => {
    if (name === undefined || AUTOMATIC.has(name)) return defaultModel;
    if (Object.hasOwn(map, name)) return map[name] ?? defaultModel;
    if (!reported.has(name) && reported.size < 100) {
      reported.add(name);
      onUnknown(name, defaultModel);
    }
    return defaultModel;
  };
}
