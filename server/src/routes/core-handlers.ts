// Core integrations other than GenerateImage, one small handler each: the route in integrations.ts has
// already spent the budgets and resolved the caller; a handler validates its body and calls its service.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseInput } from '../lib/validation';
import {
  ExtractDataSchema,
  InvokeLLMSchema,
  SendEmailSchema,
  TranscribeAudioSchema,
} from '../schemas/integrations';
import type { ExtractionService } from '../services/extraction/extraction-service';
import type { LlmService } from '../services/llm/llm-service';
import { checkJsonSchema } from '../services/llm/schema-bounds';
import type { EmailSender } from '../services/mail/send-email';
import type { Caller } from '../rules/caller';

/** CoreCall is one integration call as a handler sees it: the body is already known to be an object. */
export interface CoreCall {
  request: FastifyRequest;
  reply: FastifyReply;
  appId: string;
  caller: Caller;
  body: object;
}

/** CoreHandler answers one `Core/<Name>` call with the body to send. */
export type CoreHandler = (call: CoreCall) => Promise<unknown>;

/** coreHandlers maps integration names to handlers for the services the server has. */
export function coreHandlers(deps: {
  mail: EmailSender;
  extraction: ExtractionService;
  llm: LlmService;
}): Record<string, CoreHandler> {
  return {
    SendEmail: ({ request, appId, caller, body }) =>
      deps.mail.send(appId, caller, parseInput(SendEmailSchema, body), request.ip),
    ExtractDataFromUploadedFile: ({ request, appId, caller, body }) => {
      const input = parseInput(ExtractDataSchema, body);
      // The same bounds as InvokeLLM's schema, before the file is read (its answer may go to the model).
      checkJsonSchema(input.json_schema, 'json_schema');
      return deps.extraction.extract(appId, input, caller, request.ip);
    },
    // Without a provider the answer is the 503 naming LLM_PROVIDER_URL, whatever the body holds.
    InvokeLLM: ({ request, appId, caller, body }) => {
      deps.llm.requireProvider();
      return deps.llm.invoke(appId, caller, parseInput(InvokeLLMSchema, body), request.ip);
    },
    TranscribeAudio: ({ request, appId, caller, body }) => {
      deps.llm.requireProvider();
      return deps.llm.transcribe(appId, caller, parseInput(TranscribeAudioSchema, body), request.ip);
    },
  };
}
