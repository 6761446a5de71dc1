import { createContext, useContext } from 'react';

// The sign-in page's words that name this site. A hosted app's page (the server passes its name) says the
// same in plain words with that name, so another app's users never read about this site's Royal Court.

/** LoginCopy is the branded text of the sign-in steps. */
export interface LoginCopy {
  welcomeBack: string;
  newHere: string;
  join: string;
  invited: string;
}

const SITE_COPY: LoginCopy = {
  welcomeBack: 'Welcome back to the Royal Court.',
  newHere: 'New to the kingdom?',
  join: 'Join the Royal Court.',
  invited: 'You have been invited to the Royal Court.',
};

/** loginCopy is this site's text, or a hosted app's plain text naming brand. */
export function loginCopy(brand: string | undefined): LoginCopy {
  if (brand === undefined) return SITE_COPY;
  return {
    welcomeBack: `Welcome back to ${brand}.`,
    newHere: `New to ${brand}?`,
    join: `Join ${brand}.`,
    invited: `You have been invited to ${brand}.`,
  };
}

/** LoginCopyContext carries the page's copy to its steps (default: this site's). */
export const LoginCopyContext = createContext<LoginCopy>(SITE_COPY);

/** useLoginCopy is the branded text of the page the step is on. */
export const useLoginCopy = (): LoginCopy => useContext(LoginCopyContext);
