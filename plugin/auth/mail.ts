/**
 * How the account flows send mail: a sender is any object with `send(message)`, so a host can
 * hand them to its own mail service; `smtpSender()` is the one provided, over SMTP (nodemailer).
 * Mail goes out without the request waiting for it (MailQueue): the time of an answer never
 * depends on the mail server, nor tells whether a mail was sent, and a failed delivery is
 * reported, not answered.
 */
import nodemailer from 'nodemailer';

/** One mail, as Strapi's email plugin is given it: the same template rendered as text and as HTML. */
export interface MailMessage {
  readonly to: string;
  /** `Name <address>`, or absent: the sender's own default. */
  readonly from?: string;
  readonly replyTo?: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** What the `users.email.sender` option takes. */
export interface MailSender {
  send(message: MailMessage): Promise<void>;
  /** Called by `api.close()`, after the last mail was handed over. */
  close?(): void | Promise<void>;
}

export interface SmtpSenderOptions {
  readonly host: string;
  /** Default 587, or 465 with `secure`. */
  readonly port?: number;
  /** TLS from the first byte (port 465); otherwise STARTTLS is used when the server offers it. */
  readonly secure?: boolean;
  /** Refuse to send unless the connection is upgraded to TLS. */
  readonly requireTLS?: boolean;
  readonly auth?: { readonly user: string; readonly pass: string };
  /** The From of a mail whose template names none (Strapi's email `defaultFrom`). */
  readonly from: string;
  /** The Reply-To of a mail whose template names none (Strapi's email `defaultReplyTo`). */
  readonly replyTo?: string;
  /** Milliseconds to wait for the connection and for each answer of the server (default 10 s). */
  readonly timeout?: number;
}

/** A sender over SMTP, one pooled connection at a time. */
export function smtpSender(options: SmtpSenderOptions): MailSender {
  if (typeof options.host !== 'string' || !options.host) throw new Error('smtpSender: host is required');
  if (typeof options.from !== 'string' || !options.from) throw new Error('smtpSender: from is required, the From of mails whose template names none');
  const timeout = options.timeout ?? 10_000;
  const transport = nodemailer.createTransport({
    host: options.host,
    port: options.port ?? (options.secure ? 465 : 587),
    secure: options.secure === true,
    requireTLS: options.requireTLS === true,
    auth: options.auth ? { user: options.auth.user, pass: options.auth.pass } : undefined,
    pool: true,
    maxConnections: 1,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    async send(message) {
      await transport.sendMail({ ...message, from: message.from ?? options.from, replyTo: message.replyTo ?? options.replyTo });
    },
    close() {
      transport.close();
    },
  };
}

/**
 * Where a mail that could not be handed over is told: the API's logger, else stderr. Only the
 * recipient and subject are told, never the body, which holds a code.
 */
export function mailFailureReporter(logger: { error(details: object, message: string): void } | false | undefined): (error: unknown, message: MailMessage) => void {
  return (error, message) => {
    const what = `mail "${message.subject}" to ${message.to} not sent`;
    if (logger) logger.error({ err: error, to: message.to, subject: message.subject }, what);
    else process.stderr.write(`${what}: ${error instanceof Error ? error.message : String(error)}\n`);
  };
}

/**
 * Mails handed to the sender in the background: the request that made one does not wait for it.
 * `settled()` waits for those under way (api.close()). A failure goes to `report`.
 */
export class MailQueue {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly sender: MailSender,
    private readonly report: (error: unknown, message: MailMessage) => void,
  ) {}

  enqueue(message: MailMessage): void {
    const sending: Promise<void> = Promise.resolve()
      .then(() => this.sender.send(message))
      .catch((error: unknown) => this.report(error, message))
      .finally(() => this.pending.delete(sending));
    this.pending.add(sending);
  }

  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all(this.pending);
  }

  async close(): Promise<void> {
    await this.settled();
    await this.sender.close?.();
  }
}
