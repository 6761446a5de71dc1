// Parsing an app's source with @babel/parser (JSX and TypeScript, what Base44 apps are written in) and the
// small AST helpers entity extraction needs: a walk, member names and object-literal keys.
import { parse, type ParserPlugin } from '@babel/parser';
import type {
  Expression,
  File,
  MemberExpression,
  Node,
  ObjectProperty,
  OptionalMemberExpression,
} from '@babel/types';

// Position and comment keys hold no code: the walk skips them.
const NOT_CODE = new Set([
  'loc',
  'start',
  'end',
  'extra',
  'comments',
  'leadingComments',
  'trailingComments',
  'innerComments',
]);

/** parseSource parses a file's text as a module; .ts is TypeScript, .tsx TypeScript with JSX, others JSX. */
export function parseSource(fileName: string, text: string): File {
  // NB: plain .ts cannot take the jsx plugin: `<T>value` casts would read as elements.
  const plugins: ParserPlugin[] = fileName.endsWith('.tsx')
    ? ['typescript', 'jsx']
    : fileName.endsWith('.ts')
      ? ['typescript']
      : ['jsx'];
  return parse(text, {
    sourceType: 'module',
    plugins,
    allowReturnOutsideFunction: true,
    allowImportExportEverywhere: true,
    allowAwaitOutsideFunction: true,
  });
}

function isNode(value: unknown): value is Node {
  return (
    typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
  );
}

/** nodesOf lists every node under root, parents before children, without recursion (deep trees stay safe). */
export function nodesOf(root: Node): Node[] {
  const out: Node[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    out.push(node);
    const children: Node[] = [];
    for (const [key, value] of Object.entries(node)) {
      if (NOT_CODE.has(key)) continue;
      // A loop, not a spread: an array literal of 500,000 items would overflow the stack as arguments.
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) children.push(item);
      } else if (isNode(value)) {
        children.push(value);
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Node);
  }
  return out;
}

/** unwrap removes what does not change a value: parentheses, `as`, `satisfies`, `!`. */
export function unwrap(node: Node): Node {
  let current = node;
  while (
    current.type === 'ParenthesizedExpression' ||
    current.type === 'TSAsExpression' ||
    current.type === 'TSSatisfiesExpression' ||
    current.type === 'TSNonNullExpression'
  ) {
    current = current.expression;
  }
  return current;
}

/** isMember says whether node reads a property (`a.b`, `a['b']`, `a?.b`). */
export function isMember(node: Node): node is MemberExpression | OptionalMemberExpression {
  return node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression';
}

/** memberName is the property a member expression reads when it is written out: `a.b`, `a['b']`, `` a[`b`] ``. */
export function memberName(node: MemberExpression | OptionalMemberExpression): string | null {
  return keyName(node.property, node.computed);
}

/** keyName is a property key as written (`name`, `'name'`, `` `name` ``), or null when it is computed. */
export function keyName(key: Node, computed: boolean): string | null {
  if (key.type === 'Identifier' && !computed) return key.name;
  if (key.type === 'StringLiteral') return key.value;
  if (key.type === 'TemplateLiteral' && key.expressions.length === 0)
    return key.quasis[0]?.value.cooked ?? null;
  return null;
}

/** PlainProperty is one `key: value` of an object literal whose key is written out. */
export interface PlainProperty {
  key: string;
  value: Expression;
  node: ObjectProperty;
}

/** plainProperties lists an object literal's written-out `key: value` pairs (shorthand included). */
export function plainProperties(properties: Node[]): PlainProperty[] {
  return properties.flatMap((property) => {
    if (property.type !== 'ObjectProperty') return [];
    const key = keyName(property.key, property.computed);
    const value = property.value;
    if (key === null || value.type === 'AssignmentPattern' || !isExpression(value)) return [];
    return [{ key, value, node: property }];
  });
}

function isExpression(node: Node): node is Expression {
  return !node.type.endsWith('Pattern') && node.type !== 'RestElement' && node.type !== 'TSParameterProperty';
}

/** lineOf is a node's first line (1-based). */
export function lineOf(node: Node): number {
  return node.loc?.start.line ?? 0;
}
