/**
 * The session settings of every PostgreSQL connection of the plugin, whichever thread opens it
 * (see openDatabase in database.ts for why): JIT off, generic plans for prepared statements,
 * datetimes as UTC. A module of its own, so that a worker thread need not load knex.
 */
export const POSTGRES_SESSION = "SET jit = off; SET plan_cache_mode = force_generic_plan; SET TIME ZONE 'UTC'";
