/**
 * Where each rule of a policy is in a JSON text: the place of its `title` value, for an editor's lenses,
 * marks and hovers. Read while the user types, so it is tolerant: a text with a syntax error gives the
 * rules the parser could still read, never an error, and the text is parsed once however many rules it has.
 */
import { findNodeAtLocation, getNodeValue, parseTree, type Node } from 'jsonc-parser';
import { nestingProblem } from '../documents/jsonNesting';
import { POLICY_FILE_KIND } from '../trial/policyFile';
import { policyRuleList, type PolicyRuleRef } from './policyRuleList';

/** A rule and the place of its title in the text (character offsets); the rule's first character when it has no title text. */
export interface RuleSpot {
  rule: PolicyRuleRef;
  offset: number;
  length: number;
}

/** A policy as its text holds it: its content, its rules with their places, and for a policy file the policy it names. */
export interface PolicyText {
  content: unknown;
  spots: RuleSpot[];
  /** A `*.policy.json`: the policy it names and the version it was exported from. */
  file?: { policyId: string; name: string; baseVersionId: string | null };
}

/** The rules of a policy version's JSON text (`file`: a policy file, whose `content` holds the version's content), with their places. */
export function policyText(text: string, options: { file?: boolean } = {}): PolicyText {
  const root = nestingProblem(text) ? undefined : parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (!root) return { content: undefined, spots: [] };
  const file = options.file ? policyFileOf(root) : undefined;
  const at: (string | number)[] = options.file ? ['content'] : [];
  const contentNode = findNodeAtLocation(root, at);
  if (!contentNode) return { content: undefined, spots: [], ...(file ? { file } : {}) };
  const content: unknown = getNodeValue(contentNode);
  const spots = policyRuleList(content).map((rule) => spotOf(contentNode, rule));
  return { content, spots, ...(file ? { file } : {}) };
}

function spotOf(contentNode: Node, rule: PolicyRuleRef): RuleSpot {
  const title = findNodeAtLocation(contentNode, [...rule.jsonPath, 'title']);
  if (title?.type === 'string') return { rule, offset: title.offset, length: title.length };
  const node = findNodeAtLocation(contentNode, rule.jsonPath);
  return { rule, offset: node?.offset ?? contentNode.offset, length: 1 };
}

function policyFileOf(root: Node): PolicyText['file'] {
  const value = (path: string): unknown => {
    const node = findNodeAtLocation(root, [path]);
    return node ? (getNodeValue(node) as unknown) : undefined;
  };
  const policyId = value('policyId');
  if (value('kind') !== POLICY_FILE_KIND || typeof policyId !== 'string' || !policyId) return undefined;
  const name = value('name');
  const base = value('baseVersionId');
  return { policyId, name: typeof name === 'string' ? name : policyId, baseVersionId: typeof base === 'string' ? base : null };
}
