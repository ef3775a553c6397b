/** qrcode, loaded with the first code drawn rather than at start. */
const qrcode = async () => (await import('qrcode')).default;

/**
 * The check-in QR code of a reservation as a PNG: it encodes the check-in token as is, which the door staff's
 * scanner sends to the check-in operation. Error correction M survives a scratched phone screen; 240 px is
 * sharp at the 200 px the e-mail shows it.
 */
export async function checkInQrPng(token: string): Promise<Buffer> {
  if (!token) throw new TypeError('a check-in token is required');
  return (await qrcode()).toBuffer(token, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 240 });
}

/** The same QR code as SVG text (a guest's "manage booking" page draws it at any size). */
export async function checkInQrSvg(token: string): Promise<string> {
  if (!token) throw new TypeError('a check-in token is required');
  return (await qrcode()).toString(token, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}
