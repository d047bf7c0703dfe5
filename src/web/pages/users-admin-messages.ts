/**
 * The users page's words, each a whole sentence with `{placeholders}` (fill-message.ts), kept
 * together so that they can move into the translation catalogs as they are.
 */
export const USERS_MESSAGES = {
  title: "Users",
  intro:
    "People who may sign in to this console, with what they may do: readers read, reviewers also act on alerts, admins also manage rules, lists and users. Nobody, admins included, ever sees a stored password.",
  fleetIntro:
    "A user sees only the accounts given to them, with the same role in each; give and take accounts with regwatch users grant|revoke NAME --account ACCOUNT.",
  added:
    "User {name} was added as {role}. Their password is shown below once: give it to them now, it cannot be shown again.",
  reset:
    "The password of {name} was reset and their sessions have ended. The new password is shown below once: give it to them now, it cannot be shown again.",
  passwordOnce: "Password for {name}, shown once:",
  doneRole: "{name} is {role} now.",
  doneRoleUnchanged: "{name} was {role} already; nothing changed.",
  doneRemoved:
    "{name} was removed and their sessions have ended; what they did stays in the alerts' history.",
  lastAdmin:
    "Nothing was changed: {name} is the last admin, and the console needs one. Make another user admin first.",
  noSuchUser: 'There is no user named "{name}".',
  taken: 'A user named "{name}" exists already; reset their password instead.',
  badName: 'The user name "{name}" must be 1 to 64 letters, digits, ".", "_", "@" or "-".',
  badRole: "The role must be reader, reviewer or admin.",
  unknownAccount: 'There is no account named "{name}" in the accounts file.',
  firstAdmin:
    "Nobody can sign in yet: this console has no users. Create the first admin on the server, where regwatch runs, with the command below (it reads the password from standard input); then sign in here.",
  firstAdminCommand: "regwatch users add NAME --role admin --password-stdin",
  confirmRemove: "Tick the box to confirm that {name} is to be removed.",
} as const;
