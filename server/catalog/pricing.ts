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

export function quote(pricePerGuestVnd: number, guests: number, rules: PricingRules): PriceQuote {
  const subtotalVnd = pricePerGuestVnd * guests;
  const serviceChargeVnd = percentOf(subtotalVnd, rules.serviceChargePercent);
  const vatVnd = percentOf(subtotalVnd + serviceChargeVnd, rules.vatPercent);
  return { currency: 'VND', guests, pricePerGuestVnd, subtotalVnd, serviceChargeVnd, vatVnd, totalVnd: subtotalVnd + serviceChargeVnd + vatVnd };
}
