import { CommercialSetup } from './models.ts';

/** The one row (id 1, written by the catalog migration). */
export async function getCommercialSetup(): Promise<CommercialSetup> {
  return (await CommercialSetup.query().findById(1))!;
}
