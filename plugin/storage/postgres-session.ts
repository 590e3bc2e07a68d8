/**
 * What every PostgreSQL connection of the plugin shares, whichever thread opens it: how long
 * connecting may take, and the session settings (see openDatabase in database.ts for why).
 */

export const DEFAULT_CONNECT_TIMEOUT_MS = 2000;

/** JIT off, generic plans for prepared statements, datetimes as UTC. */
export const POSTGRES_SESSION = "SET jit = off; SET plan_cache_mode = force_generic_plan; SET TIME ZONE 'UTC'";
