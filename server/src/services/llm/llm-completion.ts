// One chat completion for Core.InvokeLLM and ExtractDataFromUploadedFile, once the caller is admitted:
// the caller's schema checked first, the user message built (files read, web context added), the answer
// checked against the schema with one repair, and every token spent recorded, the failed attempts too.
import { UpstreamError } from '../../lib/errors';
import type { Caller } from '../../rules/caller';
import type { LlmFiles } from './llm-files';
import type { ChatMessage, ContentPart, LlmProvider, TokenUsage } from './llm-provider';
import { prepareResponseSchema } from './response-schema';
import type { TokenBudget } from './token-budget';
import { contextFrom, type SearchResult } from './web-search';

/** InvokeInput is what Core.InvokeLLM takes. */
export interface InvokeInput {
  prompt: string;
  model?: string | undefined;
  response_json_schema?: object | undefined;
  file_urls?: string[] | undefined;
  add_context_from_internet?: boolean | undefined;
}

/** CompletionIntegration is the integration a completion's usage is recorded under. */
export type CompletionIntegration = 'InvokeLLM' | 'ExtractDataFromUploadedFile';

/** callerFields are who called, as a usage row records it. */
export const callerFields = (caller: Caller) => ({
  caller_kind: caller.kind,
  user_id: caller.kind === 'user' ? caller.user.id : null,
});

/** Completion runs one admitted chat call on provider and answers its text, or the value the schema admits. */
export type Completion = (
  provider: LlmProvider,
  appId: string,
  caller: Caller,
  input: InvokeInput,
  integration: CompletionIntegration,
  ip: string | undefined,
) => Promise<unknown>;

/** CompletionDeps is the part of the LLM service's deps (llm-service.ts) a completion uses. */
export interface CompletionDeps {
  budget: TokenBudget;
  files: LlmFiles;
  /** model maps an app's model name to the provider's (model-names.ts). */
  model: (name: string | undefined) => string;
  /** search is the web search (WEB_SEARCH_URL), absent when none is configured. */
  search?: ((query: string) => Promise<SearchResult[]>) | undefined;
  log: { info(message: string): void; warn(fields: object, message: string): void };
}

/** createCompletion returns the completion of the LLM service; see the file comment. */
export function createCompletion(deps: CompletionDeps): Completion {
  let searchIgnoredLogged = false;

  async function webContext(input: InvokeInput): Promise<string> {
    if (!input.add_context_from_internet) return '';
    if (!deps.search) {
      if (!searchIgnoredLogged) {
        searchIgnoredLogged = true;
        deps.log.info(
          'InvokeLLM add_context_from_internet is ignored: set WEB_SEARCH_URL to a SearXNG instance to add web results',
        );
      }
      return '';
    }
    try {
      return contextFrom(await deps.search(input.prompt));
    } catch (error) {
      // The answer is still useful without the results: the call goes on, the operator hears why.
      deps.log.warn({ reason: (error as Error).message }, 'web search failed: answering without it');
      return '';
    }
  }

  async function userMessage(appId: string, input: InvokeInput): Promise<ChatMessage> {
    const [files, web] = await Promise.all([
      input.file_urls && input.file_urls.length > 0
        ? deps.files.read(appId, input.file_urls)
        : { images: [], text: '' },
      webContext(input),
    ]);
    const text = [web, files.text, input.prompt].filter(Boolean).join('\n\n');
    if (files.images.length === 0) return { role: 'user', content: text };
    const parts: ContentPart[] = [{ type: 'text', text }, ...files.images];
    return { role: 'user', content: parts };
  }

  return async (provider, appId, caller, input, integration, ip) => {
    // The schema is checked and compiled before anything is spent on the call.
    const schema = input.response_json_schema;
    const field = integration === 'InvokeLLM' ? 'response_json_schema' : 'json_schema';
    const checker = schema ? await prepareResponseSchema(schema, field) : null;
    const model = deps.model(input.model);
    const messages: ChatMessage[] = [];
    if (schema) {
      // For providers without structured output, the instruction alone asks for the same.
      messages.push({
        role: 'system',
        content: `Answer with one JSON value only, no prose and no code fences, that matches this JSON schema:\n${JSON.stringify(schema)}`,
      });
    }
    messages.push(await userMessage(appId, input));
    const spent: TokenUsage = { prompt_tokens: 0, completion_tokens: 0 };
    const ask = async (conversation: ChatMessage[]) => {
      const answer = await provider.chat({ model, messages: conversation, jsonSchema: schema });
      spent.prompt_tokens += answer.usage.prompt_tokens;
      spent.completion_tokens += answer.usage.completion_tokens;
      return answer.content;
    };
    const recordUsage = () =>
      deps.budget.record(appId, { integration, model, ...callerFields(caller), ...spent }, ip);
    try {
      const first = await ask(messages);
      if (!checker) return first;
      const firstCheck = await checker.check(first);
      if (firstCheck.ok) return firstCheck.value;
      // One repair: the model sees its answer and what was wrong with it.
      const second = await ask([
        ...messages,
        { role: 'assistant', content: first },
        {
          role: 'user',
          content: `That answer does not match the JSON schema: ${firstCheck.problem}. Answer again with only the corrected JSON.`,
        },
      ]);
      const secondCheck = await checker.check(second);
      if (secondCheck.ok) return secondCheck.value;
      throw new UpstreamError(
        `The model's answer did not match ${field} after one retry: ${secondCheck.problem}`,
      );
    } finally {
      // Whatever was spent is recorded, the failed attempts too (they cost the same).
      if (spent.prompt_tokens + spent.completion_tokens > 0) recordUsage();
    }
  };
}
