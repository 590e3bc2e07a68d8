/**
 * The mails of the account flows, from templates written as Strapi's users-permissions email
 * templates are (its "Email templates" settings): `<%= URL %>`, `<%= USER.username %>`… Only the
 * variables a mail has are replaced, as Strapi's strict interpolation does; anything else, code
 * included, is left as it is written, never run.
 */
import type { MailMessage } from './mail.js';

export interface MailTemplate {
  /** The sender, as Strapi's `from: { name, email }`; absent: the mail sender's default. */
  readonly from?: { readonly name?: string; readonly email?: string };
  /** Strapi's `response_email`: the Reply-To. */
  readonly replyTo?: string;
  /** Strapi's `object`. */
  readonly subject: string;
  /** Strapi's `message`: sent as the text and as the HTML of the mail, as Strapi sends it. */
  readonly message: string;
}

/** Strapi 4.26.2's stock templates, its words unchanged (the sender is the host's: see MailTemplate.from). */
export const STOCK_TEMPLATES: Readonly<Record<'resetPassword' | 'emailConfirmation', MailTemplate>> = Object.freeze({
  resetPassword: {
    subject: 'Reset password',
    message: `<p>We heard that you lost your password. Sorry about that!</p>

<p>But don’t worry! You can use the following link to reset your password:</p>
<p><%= URL %>?code=<%= TOKEN %></p>

<p>Thanks.</p>`,
  },
  emailConfirmation: {
    subject: 'Account confirmation',
    message: `<p>Thank you for registering!</p>

<p>You have to confirm your email address. Please click on the link below.</p>

<p><%= URL %>?confirmation=<%= CODE %></p>

<p>Thanks.</p>`,
  },
});

/** The variables of a mail: strings, null (written as nothing), or objects of them (`USER`). */
export type TemplateData = { readonly [name: string]: string | number | boolean | null | TemplateData };

/** `USER.username` for every leaf of `data`, as Strapi lists the names a template may use. */
function variableNames(data: TemplateData, prefix = ''): Map<string, string> {
  const names = new Map<string, string>();
  for (const [key, value] of Object.entries(data)) {
    const name = `${prefix}${key}`;
    if (value !== null && typeof value === 'object') for (const [inner, text] of variableNames(value, `${name}.`)) names.set(inner, text);
    else names.set(name, value === null ? '' : String(value));
  }
  return names;
}

/** `layout` with each `<%= NAME %>` of `data` replaced by its value. */
export function renderTemplate(layout: string, data: TemplateData): string {
  const values = variableNames(data);
  return layout.replace(/<%=\s*([\w.$]+)\s*%>/g, (written, name: string) => values.get(name) ?? written);
}

/** `Name <address>` when both are given, the address alone, or nothing. */
function sender(from: MailTemplate['from']): string | undefined {
  if (from?.email && from.name) return `${from.name} <${from.email}>`;
  return from?.email || undefined;
}

/** The mail to `to` from `template`; the subject sees only the user, as in Strapi. */
export function composeMail(template: MailTemplate, to: string, data: TemplateData & { readonly USER: TemplateData }): MailMessage {
  const body = renderTemplate(template.message, data);
  const from = sender(template.from);
  return {
    to,
    ...(from ? { from } : {}),
    ...(template.replyTo ? { replyTo: template.replyTo } : {}),
    subject: renderTemplate(template.subject, { USER: data.USER }),
    text: body,
    html: body,
  };
}
