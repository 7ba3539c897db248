/**
 * An amount the contract accepted (finite, above 0, at most 2 decimal places)
 * as the exact decimal text PostgreSQL receives: 0.29 → "0.29",
 * 1e21 → "1000000000000000000000". Written out from the number's shortest
 * decimal form rather than with toFixed(), which rounds and gives up at 1e21.
 */
export function exactDecimal(amount: number): string {
  if (!Number.isFinite(amount) || amount <= 0) throw new RangeError(`Not an amount: ${amount}`);
  const [mantissa, exponent = '0'] = String(amount).toLowerCase().split('e');
  const [whole, fraction = ''] = mantissa.split('.');
  const digits = whole + fraction;
  // Where the decimal point falls among the digits.
  const point = whole.length + Number(exponent);
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}
