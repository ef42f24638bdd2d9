import * as v from 'valibot';
import { isCountryCode } from './constants';
import {
  currentPassword,
  email,
  newPassword,
  optionalPhone,
  optionalText,
  passwordConfirmation,
  passwordsMatch,
  personName,
  requiredText,
} from './fields';

/** spec 01 §5 "User login"; rememberMe chooses a longer-lived session. */
export const loginBody = v.object({
  email,
  password: currentPassword(),
  rememberMe: v.optional(v.boolean('rememberMe must be true or false'), false),
});
export type LoginBody = v.InferInput<typeof loginBody>;

/** spec 01 §5 "User registration" as the API receives it (confirmPassword and terms stay in the browser). */
export const registerBody = v.object({
  full_name: personName('Full name is required'),
  email,
  password: newPassword(),
  phone: optionalPhone,
});
export type RegisterBody = v.InferInput<typeof registerBody>;

/** The sign-up form: the API body plus the fields only the browser checks. */
export const registerForm = v.pipe(
  v.object({
    full_name: personName('Full name is required'),
    email,
    phone: optionalPhone,
    password: newPassword(),
    confirmPassword: passwordConfirmation,
    terms: v.literal(true, 'You must accept the terms and privacy policy'),
  }),
  passwordsMatch('password'),
);
export type RegisterForm = v.InferInput<typeof registerForm>;

export const profileBody = v.object({
  full_name: personName('Full name is required'),
  email,
  phone: optionalPhone,
  country: v.pipe(
    optionalText(2),
    v.check((value) => value === null || isCountryCode(value), 'Choose one of the listed countries'),
  ),
  state: optionalText(100),
  city: optionalText(100),
});
export type ProfileBody = v.InferInput<typeof profileBody>;

export const changePasswordBody = v.object({
  current_password: currentPassword('Current password is required'),
  new_password: newPassword('New password is required'),
  /** Also end the partners' access and refresh tokens (their consent stays). Other sign-ins always end. */
  sign_out_everywhere: v.optional(v.boolean('sign_out_everywhere must be true or false'), false),
});

export const deleteAccountBody = v.object({ password: currentPassword() });

export const forgotPasswordBody = v.object({ email });

export const resetPasswordBody = v.object({
  token: requiredText('Reset token is required', 200),
  new_password: newPassword('New password is required'),
});

export const verifyEmailBody = v.object({ token: requiredText('Verification token is required', 200) });

export const sendPhoneVerificationBody = v.object({ phone: optionalPhone });

export const verifyPhoneBody = v.object({
  code: v.pipe(
    requiredText('Verification code is required', 12),
    v.regex(/^\d{6}$/, 'Enter the 6-digit code'),
  ),
});

export const sessionIdParams = v.object({ id: v.pipe(v.string(), v.uuid('Unknown session')) });

export const newsletterSubscribeBody = v.object({ email });
export const newsletterTokenBody = v.object({ token: requiredText('Token is required', 200) });

/** GET /users/profile (spec 01 §3 "User profile"). */
export interface UserProfile {
  id: string;
  full_name: string;
  email: string;
  phone: string | null;
  country: string | null;
  state: string | null;
  city: string | null;
  profile_image_url: string | null;
  email_verified_at: string | null;
  phone_verified_at: string | null;
  age_verified: boolean;
  location_verified: boolean;
  identity_verified: boolean;
  age_verified_at: string | null;
  location_verified_at: string | null;
  identity_verified_at: string | null;
  is_active: boolean;
  is_verified: boolean;
  is_partner: boolean;
  created_at: string;
  updated_at: string;
}

export interface LoginResponse {
  user: UserProfile;
  access_token: string;
  token_type: 'Bearer';
  expires_at: string;
}

export interface SessionSummary {
  id: string;
  current: boolean;
  remember: boolean;
  ip_address: string | null;
  user_agent: string | null;
  created_at: string;
  last_used_at: string | null;
  expires_at: string;
}
