import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { errorCodes } from 'fastify';
import { describe, expect, it } from 'vitest';
import * as domainErrors from '../lib/errors';
import * as entityErrors from '../services/entities/entity-errors';
import * as fileInspector from '../services/files/file-inspector';
import * as fileService from '../services/files/file-service';
import * as functionErrors from '../services/functions/function-errors';
import * as signInState from '../services/auth/sign-in-state';
import * as connectorErrors from '../services/connectors/connector-errors';
import { errorAnswer, openAiErrorBody } from './error-map';

const MB = 1024 * 1024;

// One sample of every error class the domain exports, built with the arguments its constructor takes.
const samples: Record<string, Error> = {
  NotFoundError: new domainErrors.NotFoundError('Entity Todo with ID x not found'),
  ConflictError: new domainErrors.ConflictError('The agent is still answering the previous message'),
  InvalidInputError: new domainErrors.InvalidInputError('title: Required'),
  UpstreamError: new domainErrors.UpstreamError('the provider answered 500'),
  UnauthorizedError: new domainErrors.UnauthorizedError('Sign in first', 'auth_required'),
  ForbiddenError: new domainErrors.ForbiddenError('Not yours', 'user_not_registered'),
  TooManyRequestsError: new domainErrors.TooManyRequestsError('Slow down', 7),
  StorageFullError: new domainErrors.StorageFullError('This app has used its 10 GB'),
  DatabaseUnavailableError: new domainErrors.DatabaseUnavailableError(),
  NotConfiguredError: new domainErrors.NotConfiguredError('Set PUBLIC_URL'),
  NotImplementedError: new domainErrors.NotImplementedError(
    'Core.InvokeLLM is not available on this server yet',
  ),
  OutboundRefusedError: new domainErrors.OutboundRefusedError('Refused to fetch 10.0.0.1'),
  OutboundLimitError: new domainErrors.OutboundLimitError('No answer within 5000 ms', 'timeout'),
  RecordValidationError: new entityErrors.RecordValidationError('Error in field title: Field required'),
  ImportRefusedError: new entityErrors.ImportRefusedError(
    [{ row: 2, field: 'title', message: 'Required' }],
    3,
  ),
  PayloadTooLargeError: new domainErrors.PayloadTooLargeError('A file may be at most 1 MB (FILE_MAX_MB)'),
  GoneError: new domainErrors.GoneError('This link has expired'),
  FileTooLargeError: new fileInspector.FileTooLargeError('A file may be at most 1 MB (FILE_MAX_MB)'),
  SignatureExpiredError: new fileService.SignatureExpiredError('This signed URL has expired'),
  FunctionsUnavailableError: new functionErrors.FunctionsUnavailableError('No Deno on this server'),
  FunctionLoadError: new functionErrors.FunctionLoadError('Function hello failed to load', 'SyntaxError'),
  FunctionCrashError: new functionErrors.FunctionCrashError('Function hello crashed'),
  FunctionTimeoutError: new functionErrors.FunctionTimeoutError('Function hello took longer than 3 s'),
  FunctionsBusyError: new functionErrors.FunctionsBusyError('Every process of hello is busy'),
  StateRefusedError: new signInState.StateRefusedError('Start signing in again', 'used_state'),
  ConnectorError: new connectorErrors.ConnectorError('connector_not_configured', 'slack is not configured'),
};

/**
 * NEVER_ANSWERED are the error classes that never reach a response: each is caught where it is thrown
 * and becomes another kind, or stops start-up or a command. A new class that may reach HTTP needs a sample.
 */
const NEVER_ANSWERED = {
  ServerEnvError: 'invalid environment: stops start-up',
  ProjectError: 'invalid app project: stops start-up',
  OpenApiError: 'a custom integration spec: refused at load (start-up) or wrapped as InvalidInputError',
  ScheduleError: 'an automation schedule: refused when the project loads',
  SecretOpenError: 'a secret the key cannot open: stops start-up or the secrets command',
  FunctionStartError: 'a function process that did not start: becomes FunctionLoadError',
  MarketSourceError: 'a market source that failed: the market service skips it and logs why',
};

const expectedStatus: Record<string, number> = {
  NotFoundError: 404,
  ConflictError: 409,
  ConnectorError: 409,
  InvalidInputError: 400,
  StateRefusedError: 400,
  UpstreamError: 502,
  UnauthorizedError: 401,
  ForbiddenError: 403,
  TooManyRequestsError: 429,
  StorageFullError: 507,
  DatabaseUnavailableError: 503,
  NotConfiguredError: 503,
  NotImplementedError: 501,
  OutboundRefusedError: 400,
  OutboundLimitError: 504,
  RecordValidationError: 422,
  ImportRefusedError: 422,
  PayloadTooLargeError: 413,
  GoneError: 410,
  FileTooLargeError: 413,
  SignatureExpiredError: 410,
  FunctionsUnavailableError: 503,
  FunctionLoadError: 502,
  FunctionCrashError: 502,
  FunctionTimeoutError: 504,
  FunctionsBusyError: 503,
};

/** declaredErrorClasses finds every `class …Error extends …` in server/src (tests aside). */
async function declaredErrorClasses(): Promise<string[]> {
  const root = join(import.meta.dirname, '..');
  const names: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const item of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, item.name);
      if (item.isDirectory()) await walk(path);
      else if (item.name.endsWith('.ts') && !item.name.endsWith('.test.ts')) {
        const text = await readFile(path, 'utf8');
        for (const match of text.matchAll(/class (\w+Error) extends \w+/g)) {
          names.push(`${match[1]} (${relative(root, path)})`);
        }
      }
    }
  };
  await walk(root);
  return names.sort();
}

describe('errorAnswer', () => {
  it('has a sample for every error class in server/src, or says why it never reaches a response', async () => {
    const declared = (await declaredErrorClasses()).map((entry) => entry.split(' ')[0] as string);
    expect(declared.sort()).toEqual([...Object.keys(samples), ...Object.keys(NEVER_ANSWERED)].sort());
  });

  it.each(Object.entries(samples))(
    'maps %s to its status with a string message (protocol §3)',
    (name, error) => {
      const answer = errorAnswer(error, MB);
      expect(answer.status).toBe(expectedStatus[name]);
      expect(typeof answer.body.message).toBe('string');
      expect(answer.body.message).toBe(error.message);
    },
  );

  it("shows a function's load detail only when the request may see it; busy functions say when to retry", () => {
    expect(errorAnswer(samples.FunctionLoadError, MB).body).toEqual({
      message: 'Function hello failed to load',
    });
    expect(errorAnswer(samples.FunctionLoadError, MB, true).body).toEqual({
      message: 'Function hello failed to load',
      detail: 'SyntaxError',
    });
    expect(errorAnswer(samples.FunctionsBusyError, MB).headers).toEqual({ 'retry-after': '1' });
    expect(
      errorAnswer(Object.assign(new Error('closed'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }), MB),
    ).toEqual({
      status: 400,
      body: { message: 'The request body ended before it was complete' },
    });
  });

  it('puts the reason of a 401 or 403 in extra_data, and omits extra_data without one', () => {
    expect(errorAnswer(samples.UnauthorizedError, MB).body).toEqual({
      message: 'Sign in first',
      extra_data: { reason: 'auth_required' },
    });
    expect(errorAnswer(new domainErrors.ForbiddenError('Not yours'), MB).body).toEqual({
      message: 'Not yours',
    });
  });

  it('sends Retry-After for rate limits and a busy database', () => {
    expect(errorAnswer(samples.TooManyRequestsError, MB).headers).toEqual({ 'retry-after': '7' });
    expect(errorAnswer(samples.DatabaseUnavailableError, MB).headers).toEqual({ 'retry-after': '1' });
  });

  it('answers a record validation error in the production envelope', () => {
    expect(errorAnswer(samples.RecordValidationError, MB).body).toEqual({
      error_type: 'ValidationError',
      message: 'Error in field title: Field required',
      detail: 'Error in field title: Field required',
      request_id: null,
      traceback: '',
    });
  });

  it('answers a refused import with its report', () => {
    const body = errorAnswer(samples.ImportRefusedError, MB).body;
    expect(body).toMatchObject({ status: 'error', output: null, error_count: 3 });
    expect(body.errors).toEqual([{ row: 2, field: 'title', message: 'Required' }]);
    expect(body.detail).toBe(body.message);
  });

  it('logs the database cause of an input error and a missing setting, never in the body', () => {
    const cause = new Error('SELECT secret FROM users');
    const answer = errorAnswer(new domainErrors.InvalidInputError('Invalid input', { cause }), MB);
    expect(answer.log).toMatchObject({ level: 'info', fields: { err: cause } });
    expect(JSON.stringify(answer.body)).not.toContain('SELECT');
    expect(errorAnswer(samples.NotConfiguredError, MB).log?.level).toBe('warn');
  });

  it('names the route body limit when a body is too large', () => {
    const tooLarge = new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
    expect(errorAnswer(tooLarge, MB)).toMatchObject({
      status: 413,
      body: { message: 'The request body is larger than the 1 MB limit' },
    });
    expect(errorAnswer(tooLarge, 5 * MB).body.message).toContain('5 MB');
  });

  it("gives the router's own errors (a malformed URL) a fixed 400", () => {
    const badUrl = Object.assign(new Error("'/%E0' is not a valid url component"), {
      code: 'FST_ERR_BAD_URL',
      statusCode: 400,
    });
    expect(errorAnswer(badUrl, MB)).toEqual({
      status: 400,
      body: { message: 'The URL is not valid: it holds a malformed percent-encoding' },
    });
    const long = Object.assign(new Error('too long'), { code: 'FST_ERR_MAX_PARAM_LENGTH' });
    expect(errorAnswer(long, MB).body.message).toBe('The URL is not valid: a path segment is too long');
  });

  it('maps a database error by its SQLSTATE, with a fixed message', () => {
    const driver = Object.assign(new Error('value "x" violates SELECT …'), { code: '22P02' });
    const answer = errorAnswer(driver, MB);
    expect(answer.status).toBe(400);
    expect(answer.body.message).not.toContain('SELECT');
    expect(answer.log?.level).toBe('warn');
    expect(errorAnswer(Object.assign(new Error('lost'), { code: '08006' }), MB).status).toBe(503);
  });

  it('passes on a client error status carried by the error, e.g. a multipart limit', () => {
    const limit = Object.assign(new Error('The import request has too many parts'), { statusCode: 413 });
    expect(errorAnswer(limit, MB)).toEqual({
      status: 413,
      body: { message: 'The import request has too many parts' },
    });
  });

  it('answers anything else with a bare 500 and logs it', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'secret')");
    const answer = errorAnswer(bug, MB);
    expect(answer).toMatchObject({ status: 500, body: { message: 'Internal server error' } });
    expect(answer.log).toMatchObject({ level: 'error', fields: { err: bug } });
    expect(errorAnswer(Object.assign(new Error('boom'), { statusCode: 503 }), MB).status).toBe(500);
  });
});

describe('openAiErrorBody', () => {
  it("adds OpenAI's error object (type by status, code from the reason) beside the SDK's message", () => {
    const limited = errorAnswer(new domainErrors.TooManyRequestsError('Too many calls', 3), 0);
    expect(openAiErrorBody(limited)).toEqual({
      message: 'Too many calls',
      error: { message: 'Too many calls', type: 'rate_limit_error', code: null },
    });
    const anonymous = errorAnswer(new domainErrors.UnauthorizedError('Sign in', 'auth_required'), 0);
    expect(openAiErrorBody(anonymous)).toMatchObject({
      extra_data: { reason: 'auth_required' },
      error: { message: 'Sign in', type: 'authentication_error', code: 'auth_required' },
    });
    const upstream = errorAnswer(new domainErrors.UpstreamError('The LLM provider failed (HTTP 500)'), 0);
    expect(openAiErrorBody(upstream).error).toMatchObject({ type: 'server_error' });
    const invalid = errorAnswer(new domainErrors.InvalidInputError('messages: is required'), 0);
    expect(openAiErrorBody(invalid).error).toMatchObject({ type: 'invalid_request_error' });
  });
});
