/** The waiting list's job queues (./jobs.ts handles them; the commands enqueue onto them). */
export const WAITLIST_EXPIRE_OFFERS_QUEUE = 'waitlist.expire-offers';
export const WAITLIST_NOTIFY_NEXT_QUEUE = 'waitlist.notify-next';
