/**
 * Every price the API quotes (DOMAIN.md "Catalog": commercial setup). Amounts are whole VND: the service charge
 * is a percentage of the subtotal, VAT a percentage of subtotal plus service charge, each rounded half up to
 * the dong. Handlers never type a price; they call this with the offer and the current setup.
 */
export interface PricingRules {
  serviceChargePercent: number;
  vatPercent: number;
}

export interface PriceQuote {
  currency: 'VND';
  guests: number;
  pricePerGuestVnd: number;
  subtotalVnd: number;
  serviceChargeVnd: number;
  vatVnd: number;
  totalVnd: number;
}

function percentOf(amount: number, percent: number): number {
  // Percentages have two decimals: work in hundredths to keep the product exact.
  return Math.round((amount * Math.round(percent * 100)) / 10_000);
}

export interface Reductions {
  /** Off the subtotal, before charges (promo code, referral discount). */
  discountVnd?: number;
  /** Off the total, after charges (voucher). */
  creditVnd?: number;
}

/** A catalog quote: no reductions. */
export function quote(pricePerGuestVnd: number, guests: number, rules: PricingRules): PriceQuote {
  const { discountVnd: _d, creditVnd: _c, ...plain } = breakdown(pricePerGuestVnd, guests, rules);
  return plain;
}

export interface PriceBreakdown extends PriceQuote {
  /** Off the subtotal before the service charge and VAT (promo code, referral), capped at the subtotal. */
  discountVnd: number;
  /** Off the total after VAT (a voucher's stored value), capped at what is left. */
  creditVnd: number;
}

/**
 * A booking's price: `subtotal = price × guests`; `discount` (≤ subtotal) comes off before the charges; the
 * service charge and VAT are on what is left; `credit` (≤ that total) comes off last.
 */
export function breakdown(pricePerGuestVnd: number, guests: number, rules: PricingRules, reductions: Reductions = {}): PriceBreakdown {
  const subtotalVnd = pricePerGuestVnd * guests;
  const discountVnd = Math.min(subtotalVnd, Math.max(0, Math.round(reductions.discountVnd ?? 0)));
  const net = subtotalVnd - discountVnd;
  const serviceChargeVnd = percentOf(net, rules.serviceChargePercent);
  const vatVnd = percentOf(net + serviceChargeVnd, rules.vatPercent);
  const gross = net + serviceChargeVnd + vatVnd;
  const creditVnd = Math.min(gross, Math.max(0, Math.round(reductions.creditVnd ?? 0)));
  return { currency: 'VND', guests, pricePerGuestVnd, subtotalVnd, discountVnd, serviceChargeVnd, vatVnd, creditVnd, totalVnd: gross - creditVnd };
}
