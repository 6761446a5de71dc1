import type { AuthApi } from '../api/auth-api';
import type { LoginParams } from './login-params';

/** PASSWORD_MIN_LENGTH is the platform's shortest accepted password (it answers 400 below it). */
export const PASSWORD_MIN_LENGTH = 8;

/** LoginView is the step the page shows, with what it carries over from the previous step. */
export type LoginView =
  | { step: 'sign-in'; email?: string; notice?: string }
  | { step: 'sign-up'; email?: string }
  | { step: 'verify'; email: string; password: string; notice?: string }
  | { step: 'forgot'; email?: string }
  | { step: 'reset'; token: string }
  | { step: 'invite'; token: string };

/** initialView opens the step a mailed link asks for (invite, then reset), else sign-in. */
export function initialView(params: LoginParams): LoginView {
  if (params.inviteToken) return { step: 'invite', token: params.inviteToken };
  if (params.resetToken) return { step: 'reset', token: params.resetToken };
  return { step: 'sign-in' };
}

/** StepProps is what every step's form receives from the page. */
export interface StepProps {
  api: AuthApi;
  /** go shows another step, moving focus to it. */
  go(view: LoginView): void;
  /** finish leaves for the return URL with the access token. */
  finish(token: string): void;
  /** focusOnShow is true when this step replaced another (false on first load). */
  focusOnShow: boolean;
}
