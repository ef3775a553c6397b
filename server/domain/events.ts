import type { Knex } from 'knex';
import type { AppContext } from '../platform/context.ts';
import { EventBus, type AnySubscriber, type EventContext, type SubscriberResult } from '../platform/events.ts';
import type { Actor, StaffActor } from './actors.ts';

/**
 * The venue's domain events (DESIGN.md "Domain events"): what a command publishes inside its transaction, and
 * what the modules' records subscribe to. The payloads name what changed; a subscriber reads anything else it
 * needs through the unit of work's `trx`. `test/modules/events.spec.ts` prints each event's ordered subscribers.
 */

export type ReservationStatus = 'HELD' | 'CONFIRMED' | 'CHECKED_IN' | 'CANCELLED' | 'EXPIRED' | 'NO_SHOW';
export type PaymentGateway = 'VNPAY' | 'BANK_TRANSFER' | 'CASH' | 'CARD_ON_SITE';

/** A reservation's move through its state machine (server/modules/booking/lifecycle.ts). */
export interface ReservationStatusChanged {
  reservationId: string;
  from: ReservationStatus;
  to: ReservationStatus;
  reason: string | null;
}

/**
 * A payment's outcome (server/modules/payments): after the payment row changed, in the same transaction. The
 * payment settles a payable (server/domain/payables.ts): `payableKind` + `payableId`; `reservationId` is set when
 * the payable is a reservation's (its subscribers read it), absent otherwise.
 */
export interface PaymentOutcomeEvent {
  paymentId: string;
  payableKind: string;
  payableId: string;
  reservationId?: string;
  gateway: PaymentGateway;
  amountVnd: number;
  refundedVnd: number;
}

/** The show event as the cancellation flow left it (already `CANCELLED`). */
export interface CancelledShowEvent {
  id: string;
  showId: string;
  cancellationReason: string | null;
}

/** A cancellation: who cancelled, and whether its guest is to be told (the e-mail module's subscriber). */
export interface ReservationCancelled extends ReservationStatusChanged {
  by: 'GUEST' | 'STAFF' | 'SYSTEM';
  /** False when the guest hears of it otherwise (a cancelled show event writes its own message) or not at all. */
  notifyGuest: boolean;
  /** Why, when it was no one's choice about this reservation: its show event was cancelled. */
  cause?: 'event_cancelled';
  /**
   * With `event_cancelled`: what its guest had paid and not had back, read before this cancellation's refund
   * requests (the e-mail module's `reservation-cancelled` message says it).
   */
  paidVnd?: number;
}

/** What the public catalog shows that a write changed (the `catalog.changed` payload). */
export type CatalogEntity = 'show' | 'showEvent' | 'offer' | 'fulfillmentItem' | 'commercialSetup' | 'storageBlob';

export interface DomainEvents {
  /**
   * An account's ways in were revoked (the accounts module's updateUser, issue 32 §4.2): a superuser reset its
   * password or banned it. Everything that signs it in goes, in the same transaction: its sessions (the auth
   * module's in-transaction subscriber), then its passkeys (the passkeys module's).
   */
  'account.signInRevoked': { accountId: string; reason: 'password' | 'ban' };
  'reservation.confirmed': ReservationStatusChanged;
  'reservation.cancelled': ReservationCancelled;
  'reservation.noShow': ReservationStatusChanged;
  /** A guest checked in at the door (CONFIRMED → CHECKED_IN; the checkIns module's redeem): `operator` is who let them in. */
  'reservation.checkedIn': ReservationStatusChanged & { operator: string };
  /** A hold placed (HELD, seats taken until it expires): the guest's (`GUEST`), or staff's phone booking (`STAFF`). */
  'hold.placed': { reservationId: string; showEventId: string; by: 'GUEST' | 'STAFF' };
  /** A live reservation's seats changed without a status change: its guest count, or moved to another event. */
  'reservation.resized': { reservationId: string; fromShowEventId: string; toShowEventId: string; fromGuests: number; toGuests: number };
  /**
   * A guest chose to pay later and the hold is kept for it (issue 34 §1, booking's reservation payable): until
   * `payBy` for the bank transfer to arrive (`BANK_TRANSFER`), or for staff to approve paying at the venue
   * (`PAY_AT_VENUE`, above the venue's caps). Published once per change of method or deadline, in the checkout's
   * transaction; the e-mail module tells the guest (and schedules the transfer reminder at `remindAt`). Paying at
   * the venue within the caps confirms the booking instead (`reservation.confirmed`).
   */
  'reservation.paymentDeferred': {
    reservationId: string;
    method: 'PAY_AT_VENUE' | 'BANK_TRANSFER';
    payBy: Date;
    amountVnd: number;
    transferReference: string | null;
    remindAt: Date | null;
  };
  /** Holds past their expiry, marked EXPIRED in bulk by the expiry run (no per-row transition). */
  'holds.expired': { reservationIds: string[] };
  'payment.captured': PaymentOutcomeEvent;
  'payment.failed': PaymentOutcomeEvent;
  'payment.partiallyRefunded': PaymentOutcomeEvent;
  'payment.refunded': PaymentOutcomeEvent;
  /**
   * A refund settled by the gateway's (or staff's) answer, in the settling transaction, before the payment's figures
   * move: the email module tells the guest of a reservation either way (refund-completed / refund-failed).
   */
  'refund.settled': { refundId: string; paymentId: string; status: 'SUCCEEDED' | 'FAILED'; reservationId: string | null };
  /**
   * The cancellation flow (DOMAIN.md "Catalog"): published with the event row locked and marked CANCELLED, also
   * when it was already (`alreadyCancelled`: a re-run, which must find nothing left to do). Each subscriber
   * answers a summary (counts) the reply reports under its name.
   */
  'showEvent.cancelled': { event: CancelledShowEvent; reason: string | null; actor: StaffActor; alreadyCancelled: boolean };
  /**
   * Something the public catalog shows was written (issue 33 item 3): a show, an event, an offer, their items, the
   * commercial setup, a stored image's object. Published by the writing command in its unit of work; the catalog
   * module forgets its kept answers once the transaction commits (never on a rollback).
   */
  'catalog.changed': { entity: CatalogEntity; id?: string | null };
  /**
   * Two customers merged (the customers module's mergeCustomers): published in its transaction, after booking's rows
   * (reservations, leads, e-mail history) moved and before the e-mail ledger's; the later modules that file rows under
   * a customer (waiting list, inquiries) move the duplicate's to the survivor in-transaction.
   */
  'customer.merged': { fromCustomerId: string; toCustomerId: string };
  /**
   * A waiting-list entry was offered seats (NOTIFIED: its party's seats are held for it until the offer runs out),
   * by staff or by the run that follows freed seats; in the offering transaction.
   */
  'waitlist.offered': { entryId: string; showEventId: string; offerExpiresAt: Date };
  /** An open offer stopped holding its seats before it ran out or was taken: staff archived the entry. */
  'waitlist.offerWithdrawn': { entryId: string };
  /**
   * A guest sent the inquiry form (the inquiries module's create command, issue 36 §3), in its transaction: the
   * inquiry and its CRM customer exist. No contact: a subscriber that needs it reads the inquiry.
   */
  'inquiry.received': { inquiryId: string; type: 'PRIVATE_EVENT' | 'GROUP_BOOKING' | 'CORPORATE' | 'GENERAL'; customerId: string | null; preferredDate: string | null; guestCount: number | null; locale: string | null };
  /**
   * A booking that a voucher paid part of was confirmed, so the credit it took is spent for good (the vouchers module's
   * subscriber of `reservation.confirmed`, after taking the credit again when a late payment confirmed an expired
   * hold; issue 36 §3). `remainingVnd`: what is left on the voucher. A later cancellation gives the credit back
   * (`reservation.cancelled`).
   */
  'voucher.redeemed': { voucherId: string; reservationId: string; amountVnd: number; remainingVnd: number };
  /**
   * A gift voucher sold online was paid and its voucher issued (the giftVouchers module's payable, in the payment's
   * transaction; issue 36 §1). `deliveryDate`: the recipient's e-mail day (`YYYY-MM-DD`, venue time).
   */
  'voucher.sold': { orderId: string; reference: string; voucherId: string; amountVnd: number; expiresAt: Date; deliveryDate: string; paymentId: string };
}

export type DomainEvent = keyof DomainEvents;

/** The unit of work a subscriber runs in: the publisher's transaction, actor and clock, the app's services. */
export interface DomainContext extends EventContext {
  trx: Knex.Transaction;
  app: AppContext;
  actor: Actor;
  now: Date;
}

export type DomainSubscriber = AnySubscriber<DomainEvents, DomainContext>;
export type DomainEventBus = EventBus<DomainEvents, DomainContext>;

declare module '../platform/context.ts' {
  interface AppContext {
    /** Domain events: commands publish, the subscribers declared in the module records receive. */
    events: DomainEventBus;
  }
}

export const createDomainEventBus = (subscribers: readonly DomainSubscriber[]): DomainEventBus => new EventBus<DomainEvents, DomainContext>(subscribers);

/** Declares a subscriber with its payload typed by the event (module records list these). */
export function subscriber<E extends DomainEvent>(declared: {
  name: string;
  event: E;
  phase: 'in-transaction' | 'after-commit';
  order: number;
  handle(payload: DomainEvents[E], context: DomainContext): unknown | Promise<unknown>;
}): DomainSubscriber {
  return declared as unknown as DomainSubscriber;
}

/** Publishes `event` on the app's bus in the unit of work `context`. */
export function publish<E extends DomainEvent>(context: DomainContext, event: E, payload: DomainEvents[E]): Promise<SubscriberResult[]> {
  return context.app.events.publish(event, payload, context);
}
