/**
 * A pg connection of the bench's own to the benched PostgreSQL database: it runs the floor's
 * statements with the session settings the plugin's connections get, and finds the server's
 * backends, whose CPU counts as the server's (the statements run there, not in Node).
 */
import pg from 'pg';
import { POSTGRES_SESSION } from '../plugin/storage/postgres-session.js';
import { pidsCpu } from './proc-cpu.js';

export class PostgresSession {
  private constructor(
    readonly client: pg.Client,
    /** This connection's backend process, whose CPU is the floor's database side. */
    readonly backendPid: number,
  ) {}

  static async connect(url: string): Promise<PostgresSession> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(POSTGRES_SESSION);
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      return new PostgresSession(client, rows[0]!.pid);
    } catch (error) {
      await client.end();
      throw error;
    }
  }

  /**
   * CPU ms of every other backend on this database: the connections of the server under test
   * (the database is the bench's own, made for this run). PostgreSQL's shared processes
   * (checkpointer, WAL writer) are left out: they serve every database on the machine. A
   * parallel worker would be missed (it exits before the next reading), but the plugin's
   * statements plan without them on the large fixture (EXPLAIN of all 17, generic plans).
   */
  async otherBackendsCpu(): Promise<Map<number, number>> {
    const { rows } = await this.client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return pidsCpu(rows.map((row) => row.pid));
  }

  /** The floor backend's CPU ms now. */
  ownCpu(): Map<number, number> {
    return pidsCpu([this.backendPid]);
  }

  close(): Promise<void> {
    return this.client.end();
  }
}
