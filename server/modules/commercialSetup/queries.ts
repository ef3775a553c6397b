import type { Knex } from 'knex';
import { CommercialSetup } from './models.ts';

/** The one row (id 1, written by the catalog migration); in `knex`'s transaction when given. */
export async function getCommercialSetup(knex?: Knex): Promise<CommercialSetup> {
  return (await CommercialSetup.query(knex).findById(1))!;
}
