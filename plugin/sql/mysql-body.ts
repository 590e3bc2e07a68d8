/**
 * A MariaDB response body, read as the pieces its statement hands over (Dialect.bodyPieces in
 * dialect/mysql.ts): the head, the text standing for no entry, each entry in order, the tail. They
 * are joined here, the entries with commas: aggregating them in the statement would write an
 * internal temporary table to disk on every request.
 *
 * The rows are read as they arrive, and past the budget only their lengths are kept, so a body
 * far above it costs the process no more memory than one at the budget.
 */
import type { Pool as CorePool, PoolConnection } from 'mysql2';
import type { BuiltBody } from './executor.js';
import { readVersionedPair, type VersionedPair } from './mysql-known-totals.js';

const COMMA = Buffer.from(',');

/** The pieces before the entries (head, the empty text) and after them (tail). */
const LEADING_PIECES = 2;
/** The empty text's place among the pieces. */
const EMPTY = 1;
const TRAILING_PIECES = 1;
/** More than the versions a tail hands out can take: a name (64) and a version (20) per table read. */
const VERSIONS_ROOM = 16 * 1024;

/**
 * Runs a body statement on a connection of `pool` and joins the pieces it reads. `versioned`: its
 * tail ends with a NUL byte and the versions and total it used (Dialect.versionedTail), handed
 * out as `pair`, not sent.
 */
export function readBodyPieces(pool: CorePool, sql: string, values: unknown[], maxBytes: number, versioned = false): Promise<BuiltBody & { pair?: VersionedPair | null }> {
  return new Promise((resolve, reject) => {
    pool.getConnection((error, connection) => {
      if (error) return reject(error);
      const pieces = new BodyPieces(maxBytes, versioned);
      // A statement's own error comes on the command, then its end; a lost connection only on the
      // connection (a command read as it arrives gets neither), which leaves the pool by itself.
      const lost = (failure?: Error) => settle(failure ?? Object.assign(new Error('the connection closed'), { code: 'PROTOCOL_CONNECTION_LOST' }));
      let settled = false;
      const settle = (failure: unknown) => {
        if (settled) return;
        settled = true;
        connection.removeListener('error', lost);
        connection.removeListener('end', lost);
        connection.release();
        if (failure) reject(failure);
        else resolve(pieces.body());
      };
      connection.once('error', lost);
      connection.once('end', lost);
      const command = (connection as PoolConnection).execute({ sql, values, rowsAsArray: true });
      let failure: unknown = null;
      command.on('result', (row: unknown) => pieces.add((row as [Buffer | null])[0]));
      command.once('error', (commandFailure: unknown) => (failure = commandFailure));
      command.once('end', () => settle(failure));
    });
  });
}

/** The pieces read so far: their lengths, and the pieces themselves while the body can still be within the budget. */
class BodyPieces {
  private readonly lengths: number[] = [];
  private kept: Buffer[] | null = [];
  /** The body's length so far, without the empty text and the commas: it can only grow. */
  private atLeast = 0;
  /** A piece came back NULL: longer than the server's max_allowed_packet, far above any budget. */
  private truncated = false;
  /** The last piece read: the tail, once all are. */
  private last: Buffer | null = null;

  constructor(
    private readonly maxBytes: number,
    private readonly versioned: boolean,
  ) {}

  add(piece: Buffer | null): void {
    this.last = piece;
    if (piece === null) {
      this.truncated = true;
      this.kept = null;
      this.lengths.push(0);
      return;
    }
    if (this.lengths.length !== EMPTY) this.atLeast += piece.length;
    this.lengths.push(piece.length);
    // A versioned tail carries its bookkeeping too (body() takes it off): room for it until then.
    if (this.atLeast > this.maxBytes + (this.versioned ? VERSIONS_ROOM : 0)) this.kept = null;
    this.kept?.push(piece);
  }

  body(): BuiltBody & { pair?: VersionedPair | null } {
    const rows = this.lengths.length - LEADING_PIECES - TRAILING_PIECES;
    if (rows < 0) throw new Error(`a body statement handed over ${this.lengths.length} pieces, fewer than its envelope`);
    let pair: VersionedPair | null = null;
    if (this.versioned && this.last) {
      // The tail's own bytes end at the NUL; what follows is the bookkeeping, never sent.
      const end = this.last.indexOf(0);
      if (end < 0) throw new Error('a versioned body statement handed over a tail without its versions');
      pair = readVersionedPair(this.last.subarray(end + 1).toString('latin1'));
      this.atLeast -= this.last.length - end;
      this.last = this.last.subarray(0, end);
      if (this.kept) this.kept[this.kept.length - 1] = this.last;
    }
    // The empty text stands only where no entry came; rows - 1 commas join the entries.
    const size = this.truncated ? Number.MAX_SAFE_INTEGER : this.atLeast + (rows ? rows - 1 : this.lengths[EMPTY]!);
    const versioned = this.versioned ? { pair } : {};
    if (!this.kept || size > this.maxBytes) return { bytes: Buffer.alloc(0), rows, size, ...versioned };
    const [head, empty, ...rest] = this.kept;
    const entries = rest.slice(0, rows).flatMap((entry, index) => (index ? [COMMA, entry] : [entry]));
    return { bytes: Buffer.concat([head!, ...(rows ? entries : [empty!]), rest[rows]!], size), rows, size, ...versioned };
  }
}
