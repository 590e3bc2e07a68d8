/**
 * The literal checks of Strapi's own scalars, where an operation's text is refused at validation
 * (400 GRAPHQL_VALIDATION_FAILED, "Expected value of type …; <reason>"): a `Time` is
 * HH:mm:ss(.SSS), an `I18NLocaleCode` is `all` or a locale code (plain errors: graphql-js words them
 * "Expected value of type …; <reason>", as Strapi's are). Variables are taken as they are,
 * as Strapi takes them, and checked where they are used.
 */
import { Kind, type ValueNode } from 'graphql';

const TIME = /^(2[0-3]|[01][0-9]):([0-5][0-9]):([0-5][0-9])(.[0-9]{1,3})?$/;

export function timeLiteral(node: ValueNode): string {
  if (node.kind !== Kind.STRING) throw new Error('Expected a string');
  if (!TIME.test(node.value)) throw new Error('Invalid time format, expected HH:mm:ss.SSS');
  return node.value;
}

/**
 * A locale code: `all`, or a well-formed BCP 47 tag (`en`, `fr-CA`, `zh-Hans-CN`). Strapi checks
 * against its list of ISO locales; a well-formed tag outside that list is taken here (and then
 * matches no entry).
 */
export function localeLiteral(node: ValueNode): string {
  if (node.kind !== Kind.STRING) throw new Error('Locale cannot represent non string type');
  if (node.value !== 'all' && !isLocaleTag(node.value)) throw new Error('Unknown locale supplied');
  return node.value;
}

function isLocaleTag(text: string): boolean {
  try {
    return Intl.getCanonicalLocales(text).length === 1;
  } catch {
    return false;
  }
}
