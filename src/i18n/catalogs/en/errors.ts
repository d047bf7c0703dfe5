/** Error pages, refusals and the sign-in page (English). */
export const errors = {
  "error.back": "Back to the inbox",
  "error.schemaBehind.title": "Database schema behind",
  "error.failed.title": "Something went wrong",
  "error.failed.message": "The page failed; the console's log says why.",
  "error.refused.title": "Request refused",
  "error.notFound.title": "Not found",
  "error.notFound.message": "There is no page at {path}.",
  "error.noAccount.title": "No account",
  "error.noAccount.message":
    "{user} has not been given any account to look at. An admin gives one with `regwatch users grant {user} --account NAME`.",
  "error.otherAccount.title": "Another account",
  "error.otherAccount.shownFor":
    "This form was shown for the account {given}, but you are now looking at {current} (switched in another tab or window). Nothing was changed. Switch back to the form's account and send it again from a fresh page.",
  "error.otherAccount.unnamed":
    "This form did not say which account it was shown for, and you are now looking at {current}. Nothing was changed. Switch back to the form's account and send it again from a fresh page.",
  "error.csrf.title": "Form expired",
  "error.csrf.message":
    "This form did not carry a valid _csrf token (an old page, or a form from another site): nothing was changed. Go back, reload the page and try again.",
  "error.csrf.login": "The sign-in form did not carry a valid _csrf token. Reload /login and try again.",
  "error.csrf.upload":
    "The upload did not carry this session's _csrf token: nothing was checked. Reload /payments and send it again.",
  "error.role.title": "Not allowed",
  "error.role.message": "This needs the {role} role; you are signed in as {user} ({userRole}).",
  "error.accountNotGiven": '{user} has not been given the account "{account}"; nothing was changed.',
  "error.nothingChanged.title": "Nothing was changed",
  "error.noAlert": "There is no alert {id}.",
  "error.language.title": "Unknown language",
  "error.language.message": '"{locale}" is not a language of the console: choose en or hu.',

  "login.title": "Sign in",
  "login.heading": "Sign in to regwatch",
  "login.user": "User name",
  "login.password": "Password",
  "login.submit": "Sign in",
  "login.missing": "Enter a user name and a password.",
  "login.tooMany":
    "Too many failed sign-in attempts: wait {minutes, plural, one {a minute} other {# minutes}}, then try again.",
  "login.wrong": "Wrong user name or password.",
} as const;
