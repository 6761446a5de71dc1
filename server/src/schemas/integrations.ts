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

/** InstallableParamsSchema is the path of an installable package's endpoint. */
export const InstallableParamsSchema = z.object({
  appId: z.string(),
  package: z.string(),
  endpoint: z.string(),
});
