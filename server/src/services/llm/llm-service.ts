// Core.InvokeLLM and Core.TranscribeAudio: who may call (signed in unless the app is public without
// login), the daily token budget, the call itself (files and web context added, structured output checked
// against the caller's schema with one repair), and the usage recorded for the operator.
import { InvalidInputError, NotConfiguredError, OutboundLimitError, UpstreamError } from '../../lib/errors';
import type { Caller } from '../../rules/caller';
import type { LlmUsageRow, LlmUsageStore } from '../../store/llm-usage-store';
import { requireSignInUnlessOpen } from '../identity/app-access';
import type { FileReader } from '../files/file-reader';
import { MAX_DOCUMENT_CHARS, type LlmFiles } from './llm-files';
import type { ChatMessage, ContentPart, LlmProvider, TokenUsage } from './llm-provider';
import { prepareResponseSchema } from './response-schema';
import type { TokenBudget } from './token-budget';
import { contextFrom, type SearchResult } from './web-search';

export const NOT_CONFIGURED =
  'No LLM provider configured: set LLM_PROVIDER_URL to an OpenAI-compatible base URL (e.g. http://localhost:11434/v1 for Ollama) and optionally LLM_API_KEY and LLM_MODEL';

export interface InvokeInput {
  prompt: string;
  model?: string | undefined;
  response_json_schema?: object | undefined;
  file_urls?: string[] | undefined;
  add_context_from_internet?: boolean | undefined;
}

export interface TranscribeInput {
  url: string;
  language?: string | undefined;
  prompt?: string | undefined;
}

export interface LlmServiceDeps {
  /** provider is absent when LLM_PROVIDER_URL is not set: every call is then a 503 naming it. */
  provider: LlmProvider | null;
  budget: TokenBudget;
  usage: Pick<LlmUsageStore, 'recent'>;
  files: LlmFiles;
  readFileUrl: FileReader;
  audioLimits: { maxBytes: number; timeoutMs: number };
  /** model maps an app's model name to the provider's (model-names.ts). */
  model: (name: string | undefined) => string;
  transcribeModel: string;
  /** search is the web search (WEB_SEARCH_URL), absent when none is configured. */
  search?: ((query: string) => Promise<SearchResult[]>) | undefined;
  visibilityOf: (appId: string) => Promise<string>;
  log: { info(message: string): void; warn(fields: object, message: string): void };
}

/** LlmService is the LLM integrations (InvokeLLM, TranscribeAudio, extraction's fill) and their guards. */
export interface LlmService {
  /** configured says whether a provider is set (the start-up report and health name it). */
  configured: boolean;
  /** requireProvider throws the 503 naming LLM_PROVIDER_URL when no provider is set (before input checks). */
  requireProvider(): void;
  /** recentUsage lists appId's newest recorded calls, for the operator. */
  recentUsage(appId: string, limit: number): Promise<LlmUsageRow[]>;
  /** close writes the usage still queued (call before the database closes). */
  close(): Promise<void>;
  /** invoke answers InvokeLLM: a string, or with response_json_schema a value that satisfies it. */
  invoke(appId: string, caller: Caller, input: InvokeInput, ip?: string): Promise<unknown>;
  /** structured fills schema from a document's text for ExtractDataFromUploadedFile, as InvokeLLM would. */
  structured(appId: string, caller: Caller, text: string, schema: object, ip?: string): Promise<unknown>;
  /** transcribe answers TranscribeAudio: the audio file's text. */
  transcribe(appId: string, caller: Caller, input: TranscribeInput, ip?: string): Promise<string>;
}

const callerFields = (caller: Caller) => ({
  caller_kind: caller.kind,
  user_id: caller.kind === 'user' ? caller.user.id : null,
});

/** createLlmService builds the LLM integrations on the provider (or none) and the guards. */
export function createLlmService(deps: LlmServiceDeps): LlmService {
  let searchIgnoredLogged = false;

  function requireProvider(): LlmProvider {
    if (!deps.provider) throw new NotConfiguredError(NOT_CONFIGURED);
    return deps.provider;
  }

  async function admit(
    appId: string,
    caller: Caller,
    integration: string,
    ip: string | undefined,
  ): Promise<{ provider: LlmProvider; release: () => void }> {
    requireProvider();
    if (caller.kind === 'anonymous') {
      requireSignInUnlessOpen(
        await deps.visibilityOf(appId),
        caller,
        `${integration} needs a signed-in user on this app: sign in first`,
      );
    }
    await deps.budget.check(appId, caller, ip);
    const provider = requireProvider();
    return { provider, release: deps.budget.enter(appId, caller, ip) };
  }

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

  /** complete is one chat call for integration: guards, files, web context, schema check and usage. */
  async function complete(
    appId: string,
    caller: Caller,
    input: InvokeInput,
    integration: 'InvokeLLM' | 'ExtractDataFromUploadedFile',
    ip: string | undefined,
  ): Promise<unknown> {
    const { provider, release } = await admit(appId, caller, integration, ip);
    try {
      return await completeAdmitted(provider, appId, caller, input, integration, ip);
    } finally {
      release();
    }
  }

  async function completeAdmitted(
    provider: LlmProvider,
    appId: string,
    caller: Caller,
    input: InvokeInput,
    integration: 'InvokeLLM' | 'ExtractDataFromUploadedFile',
    ip: string | undefined,
  ): Promise<unknown> {
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
  }

  async function transcribeAdmitted(
    provider: LlmProvider,
    appId: string,
    caller: Caller,
    input: TranscribeInput,
    ip: string | undefined,
  ): Promise<string> {
    const file = await deps.readFileUrl(appId, input.url, deps.audioLimits).catch((error: unknown) => {
      if (error instanceof OutboundLimitError && error.reason === 'size') {
        throw new InvalidInputError(
          `The audio file is larger than ${Math.round(deps.audioLimits.maxBytes / 1024 / 1024)} MB (LLM_AUDIO_MAX_MB)`,
        );
      }
      throw error;
    });
    const result = await provider.transcribe({
      model: deps.transcribeModel,
      bytes: file.bytes,
      filename: file.filename,
      contentType: file.contentType,
      language: input.language,
      prompt: input.prompt,
    });
    deps.budget.record(
      appId,
      {
        integration: 'TranscribeAudio',
        model: deps.transcribeModel,
        ...callerFields(caller),
        ...result.usage,
      },
      ip,
    );
    return result.text;
  }

  return {
    /** configured says whether a provider is set (the start-up report and health name it). */
    configured: deps.provider !== null,
    /** requireProvider throws the 503 naming LLM_PROVIDER_URL when no provider is set (before any input check). */
    requireProvider: (): void => void requireProvider(),
    /** recentUsage lists appId's newest recorded calls, for the operator. */
    async recentUsage(appId: string, limit: number): Promise<LlmUsageRow[]> {
      await deps.budget.flush();
      return deps.usage.recent(appId, limit);
    },
    /** close writes the usage still queued (call before the database closes). */
    close: () => deps.budget.close(),
    /** invoke answers InvokeLLM: a string, or with response_json_schema a value that satisfies it. */
    invoke: (appId: string, caller: Caller, input: InvokeInput, ip?: string): Promise<unknown> =>
      complete(appId, caller, input, 'InvokeLLM', ip),

    /**
     * structured fills schema from a document's text for ExtractDataFromUploadedFile: the same call and
     * guards as InvokeLLM with that schema, its usage recorded under ExtractDataFromUploadedFile.
     */
    async structured(
      appId: string,
      caller: Caller,
      text: string,
      schema: object,
      ip?: string,
    ): Promise<unknown> {
      const document =
        text.length > MAX_DOCUMENT_CHARS ? `${text.slice(0, MAX_DOCUMENT_CHARS)}\n[… cut]` : text;
      return complete(
        appId,
        caller,
        {
          prompt: `Extract the data the JSON schema describes from this document. Use only what the document says.\n\nDocument:\n${document}`,
          response_json_schema: schema,
        },
        'ExtractDataFromUploadedFile',
        ip,
      );
    },

    /** transcribe answers TranscribeAudio: the audio file's text. */
    async transcribe(appId: string, caller: Caller, input: TranscribeInput, ip?: string): Promise<string> {
      const { provider, release } = await admit(appId, caller, 'TranscribeAudio', ip);
      try {
        return await transcribeAdmitted(provider, appId, caller, input, ip);
      } finally {
        release();
      }
    },
  };
}
