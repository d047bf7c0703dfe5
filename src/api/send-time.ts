/**
 * When did a request really leave? A new connection (TCP, TLS) or a busy event loop can hold a
 * request back well after the rate limiter let it go, and the server counts it when it arrives.
 * undici publishes `undici:request:create` synchronously inside `dispatcher.request()`, so the
 * caller's async context identifies the request there; `undici:client:sendHeaders` then tells
 * when its headers were written to the socket.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import diagnosticsChannel from "node:diagnostics_channel";

type OnSent = () => void;

const context = new AsyncLocalStorage<OnSent>();
const pending = new WeakMap<object, OnSent>();
let subscribed = false;

function subscribe(): void {
  if (subscribed) return;
  subscribed = true;
  diagnosticsChannel.subscribe("undici:request:create", (message) => {
    const onSent = context.getStore();
    const request = (message as { request?: object }).request;
    if (onSent && request) pending.set(request, onSent);
  });
  diagnosticsChannel.subscribe("undici:client:sendHeaders", (message) => {
    const request = (message as { request?: object }).request;
    const onSent = request ? pending.get(request) : undefined;
    if (request && onSent) {
      pending.delete(request);
      onSent();
    }
  });
}

/** Runs `send` (which must call undici synchronously first) and reports when its request left. */
export function withSendTime<T>(onSent: OnSent, send: () => T): T {
  subscribe();
  return context.run(onSent, send);
}
