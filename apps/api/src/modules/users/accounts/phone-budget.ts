import { tooManyRequests } from '../../../errors';
import type { RateLimitRule, RateLimitState } from '../../shared/rate-limit/service';

/** Codes one account may have texted: three per 15 minutes… */
export const PHONE_VERIFICATION_BY_USER: RateLimitRule = {
  name: 'phone-verify:user',
  limit: 3,
  windowMs: 15 * 60_000,
};
/** …and ten a day, to whatever numbers. */
export const PHONE_VERIFICATION_BY_USER_DAILY: RateLimitRule = {
  name: 'phone-verify:user-day',
  limit: 10,
  windowMs: 24 * 60 * 60_000,
};
/**
 * Codes any one number may receive, whoever asks (issue 21 item 5): as mail is capped per recipient, so that no one
 * can have Attestly text a number over and over from many accounts (harassment, or SMS pumping on the operator's
 * bill). Five an hour and ten a day.
 */
export const SMS_BY_NUMBER: RateLimitRule = { name: 'sms:number', limit: 5, windowMs: 60 * 60_000 };
export const SMS_BY_NUMBER_DAILY: RateLimitRule = {
  name: 'sms:number-day',
  limit: 10,
  windowMs: 24 * 60 * 60_000,
};

const TOO_MANY_FOR_ACCOUNT = 'Too many codes requested. Please wait before asking again.';
const TOO_MANY_FOR_NUMBER = 'Too many codes have been sent to this number. Please try again later.';

/**
 * The number as the budget counts it: its digits, with an international `00` prefix read as `+`, so that
 * `+44 7700 900123`, `+447700900123` and `0044 7700 900123` share one budget. (A national form such as
 * `07700 900123` cannot be told apart from another country's number without knowing the country.)
 */
export function phoneNumberKey(phone: string): string {
  return phone.replace(/\D/g, '').replace(/^00/, '');
}

/** What the budget needs: the database-backed fixed-window counter (rate-limit/service.ts). */
export interface PhoneBudgetLimiter {
  hit(rule: RateLimitRule, subject: string): Promise<RateLimitState>;
}

/**
 * Spends one text of the account's budget and the number's, before a code is sent; 429 when either is used up.
 * Each counter is an atomic increment in the database whose returned count decides, so racing requests from many
 * accounts or replicas get exactly as many texts as the limits allow. The account is counted first: an account over
 * its own budget does not use up the number's.
 */
export async function spendPhoneBudget(
  limiter: PhoneBudgetLimiter,
  userId: string,
  phone: string,
): Promise<void> {
  const number = phoneNumberKey(phone);
  const budgets: Array<[RateLimitRule, string, string]> = [
    [PHONE_VERIFICATION_BY_USER, userId, TOO_MANY_FOR_ACCOUNT],
    [PHONE_VERIFICATION_BY_USER_DAILY, userId, TOO_MANY_FOR_ACCOUNT],
    [SMS_BY_NUMBER, number, TOO_MANY_FOR_NUMBER],
    [SMS_BY_NUMBER_DAILY, number, TOO_MANY_FOR_NUMBER],
  ];
  for (const [rule, subject, message] of budgets) {
    const budget = await limiter.hit(rule, subject);
    if (!budget.allowed) throw tooManyRequests(message, budget.retryAfterSeconds);
  }
}
