/**
 * A mail server on loopback for the suites and recorders that send mail: it accepts every message
 * (no authentication, no TLS) and keeps it decoded: the envelope, From, To, Reply-To, Subject and
 * the text and HTML parts (quoted-printable, base64, encoded words), enough to read a link in it.
 */
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  readonly envelope: { readonly from: string; readonly to: readonly string[] };
  readonly from: string | null;
  readonly to: string | null;
  readonly replyTo: string | null;
  readonly subject: string | null;
  readonly text: string | null;
  readonly html: string | null;
}

interface Part {
  readonly headers: ReadonlyMap<string, string>;
  readonly body: string;
}

function splitPart(raw: string): Part {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? '' : raw.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  // Folded lines continue the header above them.
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeQuotedPrintable(text: string): Buffer {
  const softBreaksGone = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let index = 0; index < softBreaksGone.length; index += 1) {
    const hex = softBreaksGone.slice(index + 1, index + 3);
    if (softBreaksGone[index] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(softBreaksGone[index], 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** A part's text, its line ends as written (SMTP carries every line end as CRLF). */
function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const text =
    encoding === 'quoted-printable' ? decodeQuotedPrintable(part.body).toString('utf8') : encoding === 'base64' ? Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8') : part.body;
  return text.replace(/\r\n/g, '\n');
}

/** `=?UTF-8?Q?…?=` and `=?UTF-8?B?…?=` words of a header, decoded. */
export function decodeHeader(value: string): string {
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=\s*(?==\?)?/g, (_, _charset: string, kind: string, word: string) =>
    kind.toUpperCase() === 'B' ? Buffer.from(word, 'base64').toString('utf8') : decodeQuotedPrintable(word.replace(/_/g, ' ')).toString('utf8'),
  );
}

/** The text and HTML parts of a message, through nested multiparts. */
function bodiesOf(part: Part, found: { text: string | null; html: string | null }): void {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    for (const raw of part.body.split(`--${boundary}`).slice(1)) {
      if (raw.startsWith('--')) break;
      bodiesOf(splitPart(raw.replace(/^\r?\n/, '').replace(/\r?\n$/, '')), found);
    }
    return;
  }
  if (/^text\/html/i.test(type)) found.html ??= decodeBody(part);
  else if (/^text\/plain/i.test(type)) found.text ??= decodeBody(part);
}

export function parseMail(raw: string, envelope: ReceivedMail['envelope']): ReceivedMail {
  const message = splitPart(raw);
  const header = (name: string) => {
    const value = message.headers.get(name);
    return value === undefined ? null : decodeHeader(value);
  };
  const bodies = { text: null as string | null, html: null as string | null };
  bodiesOf(message, bodies);
  return { envelope, from: header('from'), to: header('to'), replyTo: header('reply-to'), subject: header('subject'), ...bodies };
}

export class MailBox {
  private readonly received: ReceivedMail[] = [];
  private readonly waiters = new Set<() => void>();

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  /** Listens on 127.0.0.1 (`port` 0: any free port). */
  static async start(port = 0): Promise<MailBox> {
    let box: MailBox | null = null;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const envelope = { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((recipient) => recipient.address) };
          box?.deliver(parseMail(Buffer.concat(chunks).toString('utf8'), envelope));
          callback();
        });
      },
    });
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(port, '127.0.0.1', () => done());
    });
    const address = server.server.address();
    box = new MailBox(server, typeof address === 'object' && address ? address.port : port);
    return box;
  }

  private deliver(mail: ReceivedMail): void {
    this.received.push(mail);
    for (const wake of this.waiters) wake();
  }

  /** Every mail received so far, oldest first. */
  get mails(): readonly ReceivedMail[] {
    return this.received;
  }

  /** Waits until at least `count` mails have been received in all, for `timeout` ms at most. */
  async waitFor(count: number, timeout = 5000): Promise<readonly ReceivedMail[]> {
    const deadline = Date.now() + timeout;
    while (this.received.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${count} mails expected, ${this.received.length} received within ${timeout} ms`);
      await new Promise<void>((done) => {
        const wake = () => (this.waiters.delete(wake), clearTimeout(timer), done());
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
    return this.received;
  }

  close(): Promise<void> {
    return new Promise((done) => this.server.close(() => done()));
  }
}

/** The first URL in a mail's text that contains `marker` (`?code=`, `?confirmation=`). */
export function linkIn(mail: ReceivedMail, marker: string): string {
  const url = /(?:https?:\/\/[^\s<>"]*)?\?[^\s<>"]*/g;
  for (const match of (mail.text ?? mail.html ?? '').matchAll(url)) if (match[0].includes(marker)) return match[0];
  throw new Error(`no link with "${marker}" in the mail "${mail.subject}":\n${mail.text}`);
}
