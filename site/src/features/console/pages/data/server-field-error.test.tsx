import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, renderUi, screen, waitFor } from '../../../../testing/react-root';
import { createConsoleApi } from '../../api/console-api';
import { ConsoleSessionContext } from '../../components/console-context';
import type { ConsoleEntity } from './console-entity';
import { RecordEditor } from './record-editor';
import { formFieldsOf } from './schema-form';
import { inputPathFor, serverFieldProblem } from './server-field-error';

const SCHEMA = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    priority: { type: 'integer', maximum: 5 },
    tags: { type: 'array', items: { type: 'string' } },
    meta: { type: 'object', properties: { score: { type: 'number' }, deep: { type: 'object' } } },
  },
  required: ['title'],
};
const fields = formFieldsOf(SCHEMA);
/** refusal is the server's 422 body for a record that breaks its schema (routes/error-map.ts). */
const refusal = (message: string) => ({
  error_type: 'ValidationError',
  message,
  detail: message,
  request_id: null,
  traceback: '',
});

describe('serverFieldProblem', () => {
  it('puts the validator message on the field it names', () => {
    expect(serverFieldProblem(refusal('Error in field priority: Input should be ≤ 5'), fields)).toEqual({
      path: 'priority',
      message: 'Input should be ≤ 5',
    });
    expect(
      serverFieldProblem(
        refusal('Record 0: Error in field meta.score: Input should be a valid number'),
        fields,
      ),
    ).toEqual({
      path: 'meta.score',
      message: 'Input should be a valid number',
    });
  });
  it('puts a path inside a field on that field, saying the path', () => {
    expect(
      serverFieldProblem(refusal('Error in field tags.1: Input should be a valid string'), fields),
    ).toEqual({
      path: 'tags',
      message: 'Input should be a valid string (tags.1)',
    });
    expect(inputPathFor('meta.deep.x', fields)).toBe('meta.deep');
  });
  it('answers null for a message naming no field of the form', () => {
    expect(serverFieldProblem(refusal('Error in field other: Field required'), fields)).toBeNull();
    expect(serverFieldProblem({ message: 'Permission denied' }, fields)).toBeNull();
    expect(serverFieldProblem(null, fields)).toBeNull();
  });
});

afterEach(() => vi.unstubAllGlobals());

describe('RecordEditor', () => {
  it('shows the server refusal on the input: aria-invalid, described by the message', async () => {
    const sent: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
        sent.push(JSON.parse(String(init?.body)));
        return new Response(JSON.stringify(refusal('Error in field priority: Input should be ≤ 5')), {
          status: 422,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    const entity: ConsoleEntity = { name: 'Todo', schema: SCHEMA, rules: null };
    const api = createConsoleApi('app-1', 'token');
    const session = { api, user: { email: 'ann@example.com', role: 'admin' }, signOut: () => undefined };
    renderUi(
      <QueryClientProvider client={new QueryClient()}>
        <ConsoleSessionContext.Provider value={session}>
          <RecordEditor
            entity={entity}
            record={null}
            open
            onOpenChange={() => undefined}
            onSaved={() => undefined}
          />
        </ConsoleSessionContext.Provider>
      </QueryClientProvider>,
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'title' }), { target: { value: 'Milk' } });
    fireEvent.change(screen.getByRole('spinbutton', { name: 'priority' }), { target: { value: '9' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const priority = screen.getByRole('spinbutton', { name: 'priority' });
    await waitFor(() => expect(priority.getAttribute('aria-invalid')).toBe('true'));
    const described = priority.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(described.split(' ').pop() ?? '')?.textContent).toBe(
      'Input should be ≤ 5',
    );
    expect(screen.getByRole('textbox', { name: 'title' }).getAttribute('aria-invalid')).toBeNull();
    expect(sent).toEqual([{ title: 'Milk', priority: 9 }]);
  });
});
