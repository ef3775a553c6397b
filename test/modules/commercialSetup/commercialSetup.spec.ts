import { expect } from 'chai';
import { errorPaths } from '../../helpers/accounts.ts';
import { apiKeyWith, catalogSpec } from '../shows/catalog.ts';

describe('commercialSetup: /api/commercial-setup', () => {
  const spec = catalogSpec();

  const get = (headers: Record<string, string> = spec.callers.admin) => spec.server.request('GET', '/api/commercial-setup', { headers });
  const patch = (body: unknown, headers: Record<string, string> = spec.callers.admin) => spec.server.request('PATCH', '/api/commercial-setup', { headers, body });

  it('is Admin+: 401 anonymous, 403 staff on read and update; API keys by commercial-setup:read / :write', async () => {
    expect((await get({})).status).to.equal(401);
    expect((await get(spec.callers.staff)).status).to.equal(403);
    expect((await patch({ holdMinutes: 20 }, {})).status).to.equal(401);
    expect((await patch({ holdMinutes: 20 }, spec.callers.staff)).status).to.equal(403);
    expect((await get(spec.callers.superuser)).status).to.equal(200);
    const reader = await apiKeyWith('commercial-setup:read');
    expect((await get(reader)).status).to.equal(200);
    expect((await patch({ holdMinutes: 20 }, reader)).body.code).to.equal('missing_permission');
    expect((await get()).body.holdMinutes).to.equal(15);
  });

  it('reads the migration defaults', async () => {
    const res = await get();
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ bookingCutoffMinutes: 120, holdMinutes: 15, cancellationWindowHours: 48, serviceChargePercent: 5, vatPercent: 8, defaultMaxGuests: 10, limitedAvailabilityThreshold: 10 });
    expect(res.body.paymentGateways).to.deep.equal(['VNPAY']);
  });

  it('updates the fields sent and keeps the rest; the values read back exactly (two-decimal percentages)', async () => {
    const res = await patch({ serviceChargePercent: 5.55, vatPercent: 10, paymentGateways: ['CASH', 'VNPAY'], bookingCutoffMinutes: 0, limitedAvailabilityThreshold: 0 });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ serviceChargePercent: 5.55, vatPercent: 10, bookingCutoffMinutes: 0, limitedAvailabilityThreshold: 0, holdMinutes: 15 });
    expect(res.body.paymentGateways).to.deep.equal(['CASH', 'VNPAY']);
    const read = await get();
    expect(read.body).to.deep.equal(res.body);
    const [row] = await spec.server.db.knex('commercial_setup');
    expect(Number(row.service_charge_percent)).to.equal(5.55);
  });

  it('refuses values outside the database ranges with 400 naming the field (never a 500), changing nothing', async () => {
    const before = (await get()).body;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ bookingCutoffMinutes: 10081 }, 'body/bookingCutoffMinutes'],
      [{ holdMinutes: 0 }, 'body/holdMinutes'],
      [{ holdMinutes: 1441 }, 'body/holdMinutes'],
      [{ cancellationWindowHours: 721 }, 'body/cancellationWindowHours'],
      [{ serviceChargePercent: 100.01 }, 'body/serviceChargePercent'],
      [{ vatPercent: -1 }, 'body/vatPercent'],
      [{ vatPercent: 8.125 }, 'body/vatPercent'],
      [{ defaultMaxGuests: 0 }, 'body/defaultMaxGuests'],
      [{ limitedAvailabilityThreshold: 1001 }, 'body/limitedAvailabilityThreshold'],
      [{ paymentGateways: [] }, 'body/paymentGateways'],
      [{ paymentGateways: ['VNPAY', 'VNPAY'] }, 'body/paymentGateways'],
      [{ paymentGateways: ['PAYPAL'] }, 'body/paymentGateways/0'],
      [{ holdMinutes: 1.5 }, 'body/holdMinutes'],
      [{}, 'body'],
      [{ id: 2 }, 'body/id'],
    ];
    for (const [body, path] of cases) {
      const res = await patch(body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(errorPaths(res), JSON.stringify(body)).to.include(path);
    }
    expect((await get()).body).to.deep.equal(before);
  });
});
