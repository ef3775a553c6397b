import type { Knex } from 'knex';

/**
 * A show's age rule (issue 34 §3: "a show page lists its performances with its image, description, duration and
 * age rule"): `minimum_age` is the youngest age admitted, null when the show is for all ages. 21 is the highest
 * age rule a venue applies, so anything above it is a typo, not a rule.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('shows', (t) => {
    t.integer('minimum_age');
    t.check('minimum_age is null or minimum_age between 0 and 21', [], 'shows_minimum_age_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('shows', (t) => {
    t.dropChecks(['shows_minimum_age_check']);
    t.dropColumn('minimum_age');
  });
}
