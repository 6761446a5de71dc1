import { z } from 'zod';

/** MAX_PROMPT_LENGTH bounds image prompts; longer ones are rejected rather than cut. */
export const MAX_PROMPT_LENGTH = 4000;

/** GenerateImageSchema is the body of `Core/GenerateImage` once it is known to be an object. */
export const GenerateImageSchema = z.object({
  prompt: z
    .string({
      error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string'),
    })
    .max(MAX_PROMPT_LENGTH, `must be at most ${MAX_PROMPT_LENGTH} characters`)
    .trim()
    .min(1, 'must not be empty or only whitespace'),
});

export type GenerateImageInput = z.infer<typeof GenerateImageSchema>;

/** IntegrationParamsSchema is the path of a Core integration call. */
export const IntegrationParamsSchema = z.object({ appId: z.string(), name: z.string() });

const requiredText = (max: number, label: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .max(max, `must be at most ${max} ${label}`);

/** MAX_EMAIL_BODY bounds a SendEmail body (characters of text or HTML). */
export const MAX_EMAIL_BODY = 200_000;

/** SendEmailSchema is the body of `Core/SendEmail`: one recipient, a subject, a text or HTML body. */
export const SendEmailSchema = z.object({
  to: requiredText(254, 'characters')
    .trim()
    .pipe(z.email({ error: 'must be one e-mail address' })),
  subject: requiredText(998, 'characters').trim().min(1, 'must not be empty'),
  body: requiredText(MAX_EMAIL_BODY, 'characters').min(1, 'must not be empty'),
  from_name: z.string({ error: 'must be a string' }).max(100, 'must be at most 100 characters').optional(),
});

/** ExtractDataSchema is the body of `Core/ExtractDataFromUploadedFile`. */
export const ExtractDataSchema = z.object({
  file_url: requiredText(4096, 'characters').trim().min(1, 'must not be empty'),
  json_schema: z.record(z.string(), z.unknown(), {
    error: (issue) => (issue.input === undefined ? 'is required' : 'must be a JSON schema object'),
  }),
});

/** MAX_LLM_PROMPT bounds an InvokeLLM prompt (apps embed their data in it; the provider bounds the rest). */
export const MAX_LLM_PROMPT = 200_000;
/** MAX_LLM_FILES bounds InvokeLLM's file_urls: each is read into memory, up to EXTRACT_MAX_MB. */
export const MAX_LLM_FILES = 10;

const fileUrl = z.string({ error: 'must be a URL string' }).trim().min(1, 'must not be empty').max(4096);

/** InvokeLLMSchema is the body of `Core/InvokeLLM`; other keys apps send are ignored. */
export const InvokeLLMSchema = z.object({
  prompt: requiredText(MAX_LLM_PROMPT, 'characters').trim().min(1, 'must not be empty or only whitespace'),
  model: z
    .string({ error: 'must be a string' })
    .max(100, 'must be at most 100 characters')
    .optional()
    .nullable()
    .transform((value) => value ?? undefined),
  response_json_schema: z
    .record(z.string(), z.unknown(), { error: 'must be a JSON schema object' })
    .optional()
    .nullable()
    .transform((value) => value ?? undefined),
  // One URL is accepted as a list of one (apps pass either).
  file_urls: z
    .union([
      fileUrl.transform((url) => [url]),
      z.array(fileUrl).max(MAX_LLM_FILES, `must list at most ${MAX_LLM_FILES} files`),
    ])
    .optional()
    .nullable()
    .transform((value) => value ?? undefined),
  add_context_from_internet: z
    .boolean({ error: 'must be true or false' })
    .optional()
    .nullable()
    .transform((value) => value ?? undefined),
});

/**
 * TranscribeAudioSchema is the body of `Core/TranscribeAudio` (not in the SDK's typings): real apps pass
 * `audio_url`; `audio_file_url` and `file_url` are accepted too.
 */
export const TranscribeAudioSchema = z
  .object({
    audio_url: fileUrl.optional(),
    audio_file_url: fileUrl.optional(),
    file_url: fileUrl.optional(),
    language: z
      .string({ error: 'must be a string' })
      .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/, 'must be a language code such as en or pt-BR')
      .optional(),
    prompt: z.string({ error: 'must be a string' }).max(2000, 'must be at most 2000 characters').optional(),
  })
  .transform(({ audio_url, audio_file_url, file_url, ...rest }, context) => {
    const url = audio_url ?? audio_file_url ?? file_url;
    if (url === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['audio_url'],
        message: "is required (the uploaded audio file's URL)",
      });
      return z.NEVER;
    }
    return { url, ...rest };
  });

/** InstallableParamsSchema is the path of an installable package's endpoint. */
export const InstallableParamsSchema = z.object({
  appId: z.string(),
  package: z.string(),
  endpoint: z.string(),
});
