import { closeTestDatabase } from './database.ts'; // (loading it also points a parallel worker at its own PostgreSQL database)

/**
 * Mocha root hooks (`require` in .mocharc.cjs). Nothing may keep the process alive once the specs are done:
 * mocha runs without `exit: true`, so a leaked server, timer, socket or database handle makes `npm test` hang
 * instead of being hidden. Each spec closes what it starts; the run's one shared database is closed here.
 */
export const mochaHooks = {
  async afterAll(): Promise<void> {
    // In parallel mode (`npm test` runs two workers) a root `afterAll` runs after each spec file, not once: a worker
    // keeps its one database for every file it is given (each spec file empties it first), and the pool ends the
    // worker when the run is over.
    if (process.env.MOCHA_WORKER_ID !== undefined) return;
    await closeTestDatabase();
  },
};

