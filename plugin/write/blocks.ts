/**
 * The value of a `blocks` attribute (Strapi's blocks editor) as Strapi 4.26.2 accepts it on a
 * write: a list of block nodes — paragraph, heading (level 1–6), quote, list (ordered or
 * unordered, of list items and nested lists), code, image — whose inline children are text nodes
 * (with optional bold/italic/underline/strikethrough/code flags) and links (a URL and text
 * children). Keys beyond these are kept, as Strapi keeps them. The first problem found is
 * reported with the path below the attribute (`[0, 'children', 1]`).
 */

export interface BlocksProblem {
  readonly at: readonly (string | number)[];
  readonly message: string;
}

type Node = Record<string, unknown>;
type Check = (node: Node, at: (string | number)[]) => BlocksProblem | null;

const MARKS = ['bold', 'italic', 'underline', 'strikethrough', 'code'];

/** The first problem of a blocks value, or null when Strapi would store it. */
export function blocksProblem(value: unknown): BlocksProblem | null {
  if (!Array.isArray(value)) return { at: [], message: 'must be a list of blocks' };
  return eachNode(value, [], BLOCK_CHECKS, 'Block node is of invalid type');
}

/** Nodes nested deeper than this are refused: the checks recurse, and a body may nest lists deeper than the stack goes. */
const MAX_DEPTH = 64;

function eachNode(nodes: readonly unknown[], at: (string | number)[], checks: Record<string, Check>, invalidType: string): BlocksProblem | null {
  if (at.length > 2 * MAX_DEPTH) return { at, message: `blocks nest at most ${MAX_DEPTH} levels deep` };
  for (const [index, node] of nodes.entries()) {
    const here = [...at, index];
    if (!isNode(node) || typeof node.type !== 'string' || !Object.hasOwn(checks, node.type)) return { at: here, message: invalidType };
    const problem = checks[node.type]!(node, here);
    if (problem) return problem;
  }
  return null;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `children`: a list of nodes the checks accept, with at least `min` of them. */
function children(node: Node, at: (string | number)[], checks: Record<string, Check>, invalidType: string, min: number, tooFew: string): BlocksProblem | null {
  if (!Array.isArray(node.children)) return { at: [...at, 'children'], message: 'children must be a list' };
  if (node.children.length < min) return { at: [...at, 'children'], message: tooFew };
  return eachNode(node.children, [...at, 'children'], checks, invalidType);
}

const text: Check = (node, at) => {
  if (typeof node.text !== 'string') return { at: [...at, 'text'], message: 'Text must be defined with at least an empty string' };
  const mark = MARKS.find((name) => node[name] !== undefined && typeof node[name] !== 'boolean');
  return mark ? { at: [...at, mark], message: `${mark} must be a boolean` } : null;
};

const TEXT_ONLY: Record<string, Check> = { text };

const link: Check = (node, at) => {
  if (typeof node.url !== 'string' || !isLink(node.url)) return { at: [...at, 'url'], message: 'Please specify a valid link.' };
  return children(node, at, TEXT_ONLY, 'Inline node must be Text', 0, '');
};

const INLINE: Record<string, Check> = { text, link };
const INLINE_TYPE = 'Inline node must be Text or Link';

/** A URL, or a path on the site (`/about`). */
function isLink(url: string): boolean {
  return URL.canParse(url.startsWith('/') ? `https://example.com${url}` : url);
}

const inlineBlock = (name: string): Check => (node, at) => children(node, at, INLINE, INLINE_TYPE, 1, `${name} node children must have at least one Text or Link node`);

const heading: Check = (node, at) => {
  if (![1, 2, 3, 4, 5, 6].includes(node.level as number)) return { at: [...at, 'level'], message: 'level must be one of the following values: 1, 2, 3, 4, 5, 6' };
  return inlineBlock('Heading')(node, at);
};

const listItem: Check = (node, at) => children(node, at, INLINE, INLINE_TYPE, 0, '');

const list: Check = (node, at) => {
  if (node.format !== 'ordered' && node.format !== 'unordered') return { at: [...at, 'format'], message: 'format must be one of the following values: ordered, unordered' };
  return children(node, at, LIST_CHILDREN, 'Inline node must be list-item or list', 1, 'List node children must have at least one ListItem or ListNode');
};

const LIST_CHILDREN: Record<string, Check> = { list, 'list-item': listItem };

const code: Check = (node, at) => {
  if (node.syntax !== undefined && node.syntax !== null && typeof node.syntax !== 'string') return { at: [...at, 'syntax'], message: 'syntax must be a string' };
  return children(node, at, TEXT_ONLY, 'Inline node must be Text', 1, 'Code node children must have at least one Text node');
};

/** The uploaded file an image block shows, with the keys Strapi requires of it. */
const IMAGE_KEYS: readonly [string, 'string' | 'number' | 'object'][] = [
  ['name', 'string'], ['url', 'string'], ['width', 'number'], ['height', 'number'], ['formats', 'object'], ['hash', 'string'],
  ['ext', 'string'], ['mime', 'string'], ['size', 'number'], ['provider', 'string'], ['createdAt', 'string'], ['updatedAt', 'string'],
];

/** Strapi checks the file's keys only when the block names one. */
const image: Check = (node, at) => {
  if (node.image !== undefined && !isNode(node.image)) return { at: [...at, 'image'], message: 'image must be an object' };
  for (const [key, type] of node.image ? IMAGE_KEYS : []) {
    const value = (node.image as Node)[key];
    if (typeof value !== type || value === null) return { at: [...at, 'image', key], message: `image.${key} must be defined` };
  }
  return children(node, at, INLINE, INLINE_TYPE, 0, '');
};

const BLOCK_CHECKS: Record<string, Check> = {
  paragraph: inlineBlock('Paragraph'),
  heading,
  quote: inlineBlock('Quote'),
  list,
  code,
  image,
};
