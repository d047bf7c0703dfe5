#!/usr/bin/env bash
# npm run test:at -- MOMENT [vitest arguments]: the product tests as if it were MOMENT (any text
# `date -d` reads, e.g. "2026-12-31 23:10 UTC"), for days counted in the wrong zone or at a turn
# of the month or year. Every process of the run sees the clock moved by the same offset through
# libfaketime (Debian's `faketime` package): vitest, the regwatch processes the tests start (the
# helpers pass the variables on: test/helpers/child-env.ts) and the embedded Postgres, which the
# run starts for itself (TEST_DATABASE_URL and Docker are not used: their clocks are not moved).
# Timers keep the real monotonic clock, so timeouts mean what they say. The clock runs on from
# MOMENT. The console's browser tests crawl under it (Chromium reads the clock very often).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ]; then
  echo "usage: npm run test:at -- MOMENT [vitest arguments], e.g. \"2026-12-31 23:10 UTC\"" >&2
  exit 64
fi
moment=$1
shift
if ! target=$(date -d "$moment" +%s 2>/dev/null); then
  echo "test:at: \"$moment\" is not a moment date(1) can read" >&2
  exit 64
fi

lib=""
for candidate in /usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 \
  /usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1 /usr/lib/faketime/libfaketime.so.1; do
  if [ -f "$candidate" ]; then
    lib=$candidate
    break
  fi
done
if [ -z "$lib" ]; then
  echo "test:at: libfaketime is not installed (Debian: apt-get install faketime)" >&2
  exit 69
fi

offset=$((target - $(date +%s)))
# libfaketime's relative form: a sign and seconds.
if [ "$offset" -ge 0 ]; then shift_by="+$offset"; else shift_by="$offset"; fi
echo "== tests at $(date -u -d "@$target" '+%Y-%m-%d %H:%M:%S UTC') (clock moved by ${offset} s)"
exec env -u TEST_DATABASE_URL -u DATABASE_URL \
  FAKETIME="$shift_by" FAKETIME_DONT_FAKE_MONOTONIC=1 LD_PRELOAD="$lib" \
  npx vitest run --project product "$@"
