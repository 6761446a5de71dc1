// Which entities one source file names and which fields it writes, filters or sorts on. Names are resolved
// file by file, ignoring scopes (a shadowed name is rare in app code and costs at most a spurious field).
import type {
  ArrowFunctionExpression,
  CallExpression,
  File,
  FunctionExpression,
  MemberExpression,
  Node,
  ObjectExpression,
  OptionalCallExpression,
  OptionalMemberExpression,
} from '@babel/types';
import { fieldSightingsOfCall, type FieldSighting, type ObjectValues } from './sdk-call-fields';
import { isMember, lineOf, memberName, nodesOf, plainProperties, unwrap } from './source-ast';

/** EntitySighting is one place a file names an entity, with the fields named there. */
export interface EntitySighting {
  entity: string;
  line: number;
  fields: FieldSighting[];
}

// An import from a module named `entities` (`@/api/entities`, `../api/entities.js`): the older Base44
// template re-exports each entity from there (`export const Trip = base44.entities.Trip`).
const ENTITIES_MODULE = /(^|\/)entities(\.[cm]?[jt]sx?)?$/;

/** Bindings are what a file's names stand for: entity handles, `entities` objects and plain object values. */
interface Bindings {
  entities: Map<string, string>;
  containers: Set<string>;
  objects: Map<string, ObjectExpression[]>;
  setters: Map<string, string>;
  /** mutations are `const m = useMutation({ mutationFn })`: `m.mutate(x)` passes x to mutationFn. */
  mutations: Map<string, ArrowFunctionExpression | FunctionExpression>;
  /** aliasInits are the `base44.entities.X` expressions that only give a name to a handle. */
  aliasInits: Set<Node>;
}

/** isContainer says whether node is an `entities` object: `<anything>.entities` or a name bound to one. */
function isContainer(node: Node, bindings: Bindings): boolean {
  const value = unwrap(node);
  if (isMember(value)) return memberName(value) === 'entities';
  return value.type === 'Identifier' && bindings.containers.has(value.name);
}

// Entity names are PascalCase in Base44 apps; a lower-case member (`data.entities.map`, `.length`) is an
// app's own list or object that happens to be called `entities`.
const ENTITY_LIKE = /^[A-Z]/;

/** handleName is the entity a member of an `entities` object names, if it looks like an entity. */
function handleName(node: MemberExpression | OptionalMemberExpression, bindings: Bindings): string | null {
  const name = isContainer(node.object, bindings) ? memberName(node) : null;
  return name !== null && ENTITY_LIKE.test(name) ? name : null;
}

/** entityOf is the entity node stands for (`x.entities.Todo`, `x.entities['Todo']`, a bound name), if any. */
function entityOf(node: Node, bindings: Bindings): string | null {
  const value = unwrap(node);
  if (value.type === 'Identifier') return bindings.entities.get(value.name) ?? null;
  return isMember(value) ? handleName(value, bindings) : null;
}

function bindDeclaration(id: Node, init: Node, bindings: Bindings): void {
  const value = unwrap(init);
  if (id.type === 'Identifier') {
    if (isContainer(value, bindings)) bindings.containers.add(id.name);
    const entity = entityOf(value, bindings);
    if (entity) {
      bindings.entities.set(id.name, entity);
      bindings.aliasInits.add(value);
    }
    if (value.type === 'ObjectExpression') addObject(bindings.objects, id.name, value);
    const mutationFn = value.type === 'CallExpression' ? mutationFnOf(value) : null;
    if (mutationFn) bindings.mutations.set(id.name, mutationFn);
    return;
  }
  if (id.type === 'ObjectPattern') {
    const fromContainer = isContainer(value, bindings);
    for (const property of id.properties) {
      if (property.type !== 'ObjectProperty' || property.value.type !== 'Identifier') continue;
      const key = property.key.type === 'Identifier' && !property.computed ? property.key.name : null;
      if (key === null) continue;
      // `const { Todo, Note: N } = base44.entities`, and `const { entities } = base44`.
      if (fromContainer && ENTITY_LIKE.test(key)) bindings.entities.set(property.value.name, key);
      else if (key === 'entities') bindings.containers.add(property.value.name);
    }
    return;
  }
  // `const [form, setForm] = useState({ title: '' })`: the form's fields are what create/update receive.
  if (id.type === 'ArrayPattern' && value.type === 'CallExpression' && isUseState(value.callee)) {
    const [state, setter] = id.elements;
    const first = value.arguments[0];
    if (state?.type !== 'Identifier' || first?.type !== 'ObjectExpression') return;
    addObject(bindings.objects, state.name, first);
    if (setter?.type === 'Identifier') bindings.setters.set(setter.name, state.name);
  }
}

function isCallTo(callee: Node, name: string): boolean {
  if (callee.type === 'Identifier') return callee.name === name;
  return isMember(callee) && memberName(callee) === name;
}

const isUseState = (callee: Node) => isCallTo(callee, 'useState');

/** mutationFnOf is the `mutationFn` of `useMutation({ mutationFn: (data) => ... })` (React Query), if any. */
function mutationFnOf(call: CallExpression): ArrowFunctionExpression | FunctionExpression | null {
  const options = call.arguments[0];
  if (!isCallTo(call.callee, 'useMutation') || options?.type !== 'ObjectExpression') return null;
  const fn = plainProperties(options.properties).find(({ key }) => key === 'mutationFn')?.value;
  return fn?.type === 'ArrowFunctionExpression' || fn?.type === 'FunctionExpression' ? fn : null;
}

/** objectsOf is the object literals a value stands for: itself, or what a name holds. */
function objectsOf(value: Node | undefined, objects: ObjectValues): readonly ObjectExpression[] {
  const inner = value ? unwrap(value) : undefined;
  if (inner?.type === 'ObjectExpression') return [inner];
  return inner?.type === 'Identifier' ? (objects.get(inner.name) ?? []) : [];
}

/**
 * mutateObjects binds mutationFn's first parameter to what `m.mutate(argument)` passes: `(data) => ...` takes
 * the whole value, `({ id, data }) => ...` each written-out key of it.
 */
function mutateObjects(
  param: Node | undefined,
  argument: Node | undefined,
  objects: ObjectValues,
): ObjectValues {
  const bound = new Map(objects);
  const values = objectsOf(argument, objects);
  if (param?.type === 'Identifier') bound.set(param.name, values);
  if (param?.type !== 'ObjectPattern') return bound;
  for (const property of param.properties) {
    if (property.type !== 'ObjectProperty' || property.value.type !== 'Identifier') continue;
    const key = property.key.type === 'Identifier' && !property.computed ? property.key.name : null;
    const held = values.flatMap((object) =>
      plainProperties(object.properties)
        .filter((candidate) => candidate.key === key)
        .flatMap((candidate) => objectsOf(candidate.value, objects)),
    );
    bound.set(property.value.name, held);
  }
  return bound;
}

/** entityCall reads `<entity handle>.<method>(...)`, the calls whose arguments name fields. */
function entityCall(
  node: Node,
  bindings: Bindings,
): { entity: string; method: string; call: CallExpression | OptionalCallExpression } | null {
  if ((node.type !== 'CallExpression' && node.type !== 'OptionalCallExpression') || !isMember(node.callee))
    return null;
  const entity = entityOf(node.callee.object, bindings);
  const method = memberName(node.callee);
  return entity && method ? { entity, method, call: node } : null;
}

/** MAX_OBJECTS_PER_NAME bounds the objects kept for one state or variable (a file may set one 100,000 times). */
const MAX_OBJECTS_PER_NAME = 100;

function addObject(objects: Map<string, ObjectExpression[]>, name: string, value: ObjectExpression): void {
  const kept = objects.get(name) ?? [];
  objects.set(name, kept);
  if (kept.length < MAX_OBJECTS_PER_NAME) kept.push(value);
}

/** setterObject is the object a form setter is given: `setForm({...})` or `setForm((f) => ({...f, x}))`. */
function setterObject(argument: Node | undefined): ObjectExpression | null {
  if (!argument) return null;
  const value = unwrap(argument);
  if (value.type === 'ObjectExpression') return value;
  if (value.type === 'ArrowFunctionExpression' && value.body.type !== 'BlockStatement') {
    const body = unwrap(value.body);
    return body.type === 'ObjectExpression' ? body : null;
  }
  return null;
}

/**
 * exportedEntityHandles lists a module's `export const Name = <client>.entities.Entity` (by exported name):
 * other files import these handles from it.
 */
export function exportedEntityHandles(ast: File): Map<string, string> {
  const handles = new Map<string, string>();
  const bindings = emptyBindings();
  for (const statement of ast.program.body) {
    if (statement.type !== 'ExportNamedDeclaration' || statement.declaration?.type !== 'VariableDeclaration')
      continue;
    for (const declarator of statement.declaration.declarations) {
      if (declarator.id.type !== 'Identifier' || !declarator.init) continue;
      const entity = entityOf(declarator.init, bindings);
      if (entity) handles.set(declarator.id.name, entity);
    }
  }
  return handles;
}

function emptyBindings(): Bindings {
  return {
    entities: new Map(),
    containers: new Set(),
    objects: new Map(),
    setters: new Map(),
    mutations: new Map(),
    aliasInits: new Set(),
  };
}

/**
 * extractSightings lists where ast names an entity and the fields it writes, filters or sorts on there.
 * imported maps handle names exported by an `entities` module (exportedEntityHandles) to their entity.
 */
export function extractSightings(ast: File, imported: ReadonlyMap<string, string>): EntitySighting[] {
  const nodes = nodesOf(ast);
  const bindings = emptyBindings();
  // Names first (declarations and imports), so a use above a declaration is still understood.
  for (const node of nodes) {
    if (node.type === 'VariableDeclarator' && node.init) bindDeclaration(node.id, node.init, bindings);
    if (node.type === 'ImportDeclaration' && ENTITIES_MODULE.test(node.source.value)) {
      for (const specifier of node.specifiers) {
        if (specifier.type !== 'ImportSpecifier') continue;
        const name =
          specifier.imported.type === 'Identifier' ? specifier.imported.name : specifier.imported.value;
        const entity = imported.get(name);
        if (entity) bindings.entities.set(specifier.local.name, entity);
      }
    }
  }
  for (const node of nodes) {
    if (node.type !== 'CallExpression' || node.callee.type !== 'Identifier') continue;
    const state = bindings.setters.get(node.callee.name);
    const object = state ? setterObject(node.arguments[0]) : null;
    if (state && object) addObject(bindings.objects, state, object);
  }
  const sightings: EntitySighting[] = [];
  for (const node of nodes) {
    const found = entityCall(node, bindings);
    if (found && isMember(found.call.callee)) {
      const fields = fieldSightingsOfCall(found.method, found.call.arguments, bindings.objects);
      sightings.push({ entity: found.entity, line: lineOf(node), fields });
      bindings.aliasInits.add(unwrap(found.call.callee.object));
    } else if (
      node.type === 'CallExpression' &&
      isMember(node.callee) &&
      node.callee.object.type === 'Identifier'
    ) {
      // `m.mutate(value)`: the entity calls inside m's mutationFn, with its parameter bound to value.
      const fn = bindings.mutations.get(node.callee.object.name);
      const method = memberName(node.callee);
      if (!fn || (method !== 'mutate' && method !== 'mutateAsync')) continue;
      const objects = mutateObjects(fn.params[0], node.arguments[0], bindings.objects);
      for (const inner of nodesOf(fn.body)) {
        const call = entityCall(inner, bindings);
        if (call) {
          const fields = fieldSightingsOfCall(call.method, call.call.arguments, objects);
          sightings.push({ entity: call.entity, line: lineOf(node), fields });
        }
      }
    } else if (isMember(node) && !bindings.aliasInits.has(node)) {
      // A handle named but not called here (passed on, stored): the entity is still used.
      const entity = handleName(node, bindings);
      if (entity) sightings.push({ entity, line: lineOf(node), fields: [] });
    }
  }
  return sightings;
}
