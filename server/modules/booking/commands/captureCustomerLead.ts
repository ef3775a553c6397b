import type { AppContext } from '../../../platform/context.ts';
import { Unprocessable } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { queueLeadConversion } from '../../analytics/index.ts';
import type { LeadInput } from '../inputs.ts';
import { insertLead } from '../contacts.ts';
import { showEventIdBySlug } from '../queries.ts';
import { digest } from '../../../platform/auth/tokens.ts';
import { newLeadReference } from '../tokens.ts';
import { bookContact } from './upsertCustomer.ts';

/** A lead reference is good for this long after its capture. */
export const LEAD_TTL_HOURS = 24;

/** Where the lead came from (the request's), for the ad platform's `Lead` conversion. */
export interface LeadOrigin {
  ip: string;
  userAgent: string;
  sourceUrl: string | undefined;
}

/**
 * Records the lead with the contact it was made with, under the customer of its e-mail (created when there is
 * none; an existing one is left as it is); the same answer whether the e-mail was known or not. An `eventSlug`
 * must name a show event (422 `unknown_event` otherwise: a lead for nothing is a front end's bug to surface).
 * Once it has committed, the Meta `Lead` conversion is queued (issue 11; best effort, off unless configured).
 */
export async function captureCustomerLead(app: AppContext, input: LeadInput, origin: LeadOrigin, now = new Date()): Promise<{ leadReference: string; expiresAt: Date }> {
  const leadReference = newLeadReference();
  const expiresAt = new Date(now.getTime() + LEAD_TTL_HOURS * 3_600_000);
  await inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    async ({ trx }) => {
      const eventId = input.eventSlug ? await showEventIdBySlug(trx, input.eventSlug) : undefined;
      if (input.eventSlug && !eventId) {
        throw Unprocessable('unknown_event', 'No show event has this slug.', [{ path: 'body/eventSlug', message: 'is not a show event', code: 'unknown_event' }]);
      }
      const contact = await bookContact(trx, input, 'guest');
      await insertLead(trx, {
        customerId: contact.id,
        honorific: contact.honorific,
        name: contact.name,
        email: contact.email,
        phone: contact.phone,
        locale: input.locale ?? null,
        referenceHash: digest(leadReference),
        showEventId: eventId ?? null,
        bookingPath: input.bookingPath ?? null,
        guestCount: input.guestCount ?? null,
        experienceType: input.experienceType ?? null,
        analyticsSessionId: input.analytics?.sessionId ?? null,
        analyticsDistinctId: input.analytics?.distinctId ?? null,
        analyticsLocalSessionId: input.analytics?.localSessionId ?? null,
        expiresAt,
      });
    },
    now,
  );
  // After the commit and awaited (as before the split): a failure to queue it is the request's failure.
  await queueLeadConversion(app, { leadReference, email: input.email, phone: input.phone, ip: origin.ip, userAgent: origin.userAgent, sourceUrl: origin.sourceUrl });
  return { leadReference, expiresAt };
}
