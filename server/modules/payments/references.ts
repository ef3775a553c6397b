import { randomBytes } from 'node:crypto';
import type { Gateway } from './models.ts';

/** The references a payment is written with (`payments.txn_ref`: unique and required). */

/** A fresh VNPay `vnp_TxnRef`: the reservation's code and 8 random hex digits (unique per attempt). */
export const newVnpayTxnRef = (reference: string) => `${reference.replace(/^VN-/, '')}-${randomBytes(4).toString('hex').toUpperCase()}`;

/** A bank transfer reference guests can type (letters and digits only: banks strip the rest). */
export const newTransferReference = (reference: string) => `BT${reference.replace(/^VN-/, '')}${randomBytes(2).toString('hex').toUpperCase()}`;

/** Our own reference of an on-site payment (txn_ref is unique and required). */
export const newOnSiteReference = (gateway: Gateway, reference: string) => `${gateway === 'CASH' ? 'CS' : gateway === 'CARD_ON_SITE' ? 'CD' : 'BT'}${reference.replace(/^VN-/, '')}${randomBytes(3).toString('hex').toUpperCase()}`;
