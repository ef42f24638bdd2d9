import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  cardBody,
  cardBrand,
  cardCvvProblem,
  cardExpiryProblem,
  cardNumberProblem,
  luhnValid,
} from './verification';

describe('Luhn check', () => {
  it('accepts the published test numbers of each scheme', () => {
    for (const number of [
      '4242424242424242',
      '4111111111111111',
      '5555555555554444',
      '378282246310005',
      '6011111111111117',
      '3530111333300000',
    ]) {
      expect(luhnValid(number), number).toBe(true);
    }
  });

  it('rejects a number with one digit changed or two digits swapped', () => {
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('4242424242424224')).toBe(false);
  });

  it('rejects anything that is not all digits', () => {
    expect(luhnValid('4242 4242 4242 4242')).toBe(false);
    expect(luhnValid('')).toBe(false);
  });
});

describe('card brand detection', () => {
  it('recognises each scheme by its issuer prefix', () => {
    expect(cardBrand('4242424242424242')).toBe('visa');
    expect(cardBrand('5555555555554444')).toBe('mastercard');
    expect(cardBrand('2223003122003222')).toBe('mastercard');
    expect(cardBrand('378282246310005')).toBe('amex');
    expect(cardBrand('6011111111111117')).toBe('discover');
    expect(cardBrand('3056930009020004')).toBe('diners');
    expect(cardBrand('3530111333300000')).toBe('jcb');
    expect(cardBrand('6200000000000005')).toBe('unionpay');
    expect(cardBrand('9999999999999995')).toBe('unknown');
  });

  it('checks the length each brand uses', () => {
    expect(cardNumberProblem('4242 4242 4242 4242')).toBeNull();
    expect(cardNumberProblem('37828224631000')).toBe('Invalid card number');
    expect(cardNumberProblem('12345')).toBe('Card number must be 12 to 19 digits');
  });
});

describe('card expiry', () => {
  const now = new Date('2026-11-25T12:00:00Z');

  it('accepts this month and up to ten years ahead', () => {
    expect(cardExpiryProblem(11, 2026, now)).toBeNull();
    expect(cardExpiryProblem(1, 2036, now)).toBeNull();
  });

  it('rejects a past month of this year as expired', () => {
    expect(cardExpiryProblem(10, 2026, now)).toBe('This card has expired');
  });

  it('rejects years outside the current year plus ten', () => {
    expect(cardExpiryProblem(12, 2025, now)).toBe('Expiry year must be between 2026 and 2036');
    expect(cardExpiryProblem(12, 2037, now)).toBe('Expiry year must be between 2026 and 2036');
  });

  it('rejects months outside 01 to 12', () => {
    expect(cardExpiryProblem(13, 2030, now)).toBe('Expiry month must be between 01 and 12');
    expect(cardExpiryProblem(0, 2030, now)).toBe('Expiry month must be between 01 and 12');
  });
});

describe('CVV format', () => {
  it('wants four digits for American Express and three for the others', () => {
    expect(cardCvvProblem('1234', 'amex')).toBeNull();
    expect(cardCvvProblem('123', 'amex')).toMatch(/4-digit/);
    expect(cardCvvProblem('123', 'visa')).toBeNull();
    expect(cardCvvProblem('1234', 'visa')).toBe('CVV must be 3 digits for this card');
    expect(cardCvvProblem('12a', 'visa')).toBe('CVV must be 3 or 4 digits');
  });
});

describe('card form schema', () => {
  it('reports every missing field with the spec message', () => {
    const result = v.safeParse(cardBody, {});
    expect(result.success).toBe(false);
    expect(result.issues?.map((issue) => issue.message)).toEqual([
      'Card number is required',
      'Cardholder name is required',
      'Expiry month is required',
      'Expiry year is required',
      'CVV is required',
    ]);
  });

  it('normalises spaces in the number and two-digit years', () => {
    const result = v.parse(cardBody, {
      card_number: '4242 4242 4242 4242',
      cardholder_name: ' Ada Lovelace ',
      expiry_month: '03',
      expiry_year: '31',
      cvv: '123',
    });
    expect(result).toEqual({
      card_number: '4242424242424242',
      cardholder_name: 'Ada Lovelace',
      expiry_month: 3,
      expiry_year: 2031,
      cvv: '123',
    });
  });

  it('says the number is invalid when the checksum fails', () => {
    const result = v.safeParse(cardBody, {
      card_number: '4242424242424241',
      cardholder_name: 'A',
      expiry_month: '1',
      expiry_year: '2030',
      cvv: '123',
    });
    expect(result.issues?.[0]?.message).toBe('Invalid card number');
  });

  it('limits the CVV to four characters', () => {
    const result = v.safeParse(cardBody, {
      card_number: '4242424242424242',
      cardholder_name: 'A',
      expiry_month: '1',
      expiry_year: '2030',
      cvv: '12345',
    });
    expect(result.issues?.[0]?.message).toBe('CVV must be at most 4 digits');
  });
});
