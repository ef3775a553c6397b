import type { Knex } from 'knex';
import type { NewTurn } from './turns.ts';

/**
 * The chat turns' set-based SQL: the insert of a new turn is an `insert … on conflict do nothing` on the
 * platform's message id (a duplicate delivery inserts nothing), so it stays a statement of its own here; every
 * other read and write of a turn goes through the `ChatTurn` model (commands/runTurn.ts).
 */

/** The insert of a new turn (`QUEUED`); a repeated platform message id (a duplicate delivery) inserts nothing. */
export function turnInsert(knex: Knex | Knex.Transaction, turn: NewTurn & { id?: string }) {
  return knex('chat_turns')
    .insert({
      ...(turn.id ? { id: turn.id } : {}),
      source: turn.source,
      channel: turn.channel,
      recipient: turn.recipient,
      external_message_id: turn.externalMessageId ?? null,
      locale: turn.locale,
      guest_text: turn.text,
    })
    .onConflict(['source', 'external_message_id'])
    .ignore();
}

/** Inserts a QUEUED turn; null when the platform's message id was already received (a duplicate delivery). */
export async function insertTurn(knex: Knex | Knex.Transaction, turn: NewTurn): Promise<string | null> {
  const rows = (await turnInsert(knex, turn).returning('id')) as Array<{ id: string }>;
  return rows[0]?.id ?? null;
}
