import type { Knex } from 'knex';

/**
 * The assistant's knowledge (DOMAIN.md "Assistant, chat and analytics"): documents with a topic shared by their
 * translations, a locale, markdown body and tags; `DRAFT` → `PUBLISHED` → `ARCHIVED`. Every edit writes a
 * revision (who, when, what changed). At most one document that is not archived per topic and locale (a partial
 * unique index: two racing creates cannot both win). Nothing is hard-deleted.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('knowledge_documents', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('topic').notNullable();
    t.text('locale').notNullable();
    t.text('title').notNullable();
    t.text('body').notNullable();
    t.jsonb('tags').notNullable().defaultTo('[]');
    t.text('status').notNullable().defaultTo('DRAFT');
    t.integer('revision').notNullable().defaultTo(1);
    t.timestamp('published_at', { useTz: true });
    t.timestamp('archived_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['status', 'locale']);
    t.index(['updated_at']);
    t.check("status in ('DRAFT', 'PUBLISHED', 'ARCHIVED')", [], 'knowledge_documents_status_check');
    t.check("topic ~ '^[a-z0-9]+(-[a-z0-9]+)*$'", [], 'knowledge_documents_topic_check');
    t.check("jsonb_typeof(tags) = 'array'", [], 'knowledge_documents_tags_check');
    t.check('revision >= 1', [], 'knowledge_documents_revision_check');
  });
  await knex.raw(
    `create unique index knowledge_documents_topic_locale_unique on knowledge_documents (topic, locale) where status <> 'ARCHIVED'`,
  );

  await knex.schema.createTable('knowledge_revisions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('document_id').notNullable().references('knowledge_documents.id').onDelete('CASCADE');
    t.integer('revision').notNullable();
    t.text('action').notNullable();
    t.text('actor_kind').notNullable();
    t.text('actor_id');
    t.text('actor_label').notNullable();
    t.jsonb('changes').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['document_id', 'revision']);
    t.check("action in ('CREATE', 'UPDATE', 'PUBLISH', 'ARCHIVE')", [], 'knowledge_revisions_action_check');
    t.check("actor_kind in ('account', 'api-key', 'superuser-token')", [], 'knowledge_revisions_actor_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('knowledge_revisions');
  await knex.schema.dropTableIfExists('knowledge_documents');
}
