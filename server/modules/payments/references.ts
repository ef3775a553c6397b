import { randomBytes } from 'node:crypto';
import type { Gateway } from './models.ts';

/** The references a payment is written with (`payments.txn_ref`: unique and required), on its payable's stem (`txnRefPrefix`). */

/** A fresh VNPay `vnp_TxnRef`: the payable's stem (a reservation's code) and 8 random hex digits (unique per attempt). */
export const newVnpayTxnRef = (stem: string) => `${stem}-${randomBytes(4).toString('hex').toUpperCase()}`;

/** A bank transfer reference guests can type (letters and digits only: banks strip the rest). */
export const newTransferReference = (stem: string) => `BT${stem}${randomBytes(2).toString('hex').toUpperCase()}`;

/** Our own reference of an on-site payment (txn_ref is unique and required). */
export const newOnSiteReference = (gateway: Gateway, stem: string) => `${gateway === 'CASH' ? 'CS' : gateway === 'CARD_ON_SITE' ? 'CD' : 'BT'}${stem}${randomBytes(3).toString('hex').toUpperCase()}`;
