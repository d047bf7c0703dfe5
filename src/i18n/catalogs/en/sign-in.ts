/** Company sign-in (OpenID Connect): the button and every refusal (English). */
export const signIn = {
  "oidc.button": "Sign in with {provider}",
  "oidc.or": "or with a local user name and password",
  "oidc.localOff": "Sign-in with a password is turned off here: sign in with {provider}.",
  "oidc.refused.title": "Company sign-in refused",
  "oidc.unreachable.title": "The identity provider cannot be reached",
  "oidc.unreachable.message":
    "The sign-in could not start: {reason}. Try again later, or ask your administrator.",
  "oidc.noPending":
    "This sign-in was not started in this browser, has already been used or has lapsed (after ten minutes). Start again from the sign-in page.",
  "oidc.providerError": "The identity provider did not sign you in: {error}.",
  "oidc.checkFailed":
    "The identity provider's answer did not pass the console's checks, so nobody was signed in: {reason}.",
  "oidc.noRole":
    "You ({name}) signed in at {provider}, but none of your groups or claims gives you a role in regwatch. Ask your administrator to add you to a group the console maps to a role.",
  "oidc.noName":
    "The identity provider gave no usable user name ({claims}): a name is 1 to 64 letters, digits and . _ @ -.",
  "oidc.nameTaken":
    'The user name "{name}" belongs to another console user, so you were not signed in. Ask your administrator to rename that user or change REGWATCH_OIDC_NAME_CLAIM.',
  "oidc.passwordOff.title": "Password sign-in is off",
  "oidc.passwordOff.message":
    "This console signs people in through {provider} only; use the button on the sign-in page.",
  "oidc.startAgain": "Back to the sign-in page",
  "oidc.tooMany.title": "Too many sign-ins started",
  "oidc.tooMany.message":
    "Too many company sign-ins were started from your address in the last minute: wait {minutes, plural, one {a minute} other {# minutes}}, then try again.",
} as const;
