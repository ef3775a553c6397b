import { closeTestDatabase } from './database.ts';

/**
 * Mocha root hooks (`require` in .mocharc.yml). Nothing may keep the process alive once the specs are done:
 * mocha runs without `exit: true`, so a leaked server, timer, socket or database handle makes `npm test` hang
 * instead of being hidden. Each spec closes what it starts; the run's one shared database is closed here.
 */
export const mochaHooks = {
  async afterAll(): Promise<void> {
    await closeTestDatabase();
  },
};

