import { checkoutPayable } from '../checkout.ts';

/**
 * `startCheckout` (public): the guest's booking, the first payable, to the chosen method. The checkout itself is
 * ../checkout.ts (any payable: a module that sells something else reaches it through this module's index.ts).
 */
export const startCheckout = checkoutPayable;
