/**
 * Node's codes for a TLS certificate it will not trust: the same for the registry's https, a
 * webhook's, and a Postgres connection with sslmode=verify-full or verify-ca. Trying again does
 * not help; the address, the certificate or the authorities Node trusts must change.
 */
export const UNTRUSTED_CERTIFICATE: ReadonlySet<string> = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);
