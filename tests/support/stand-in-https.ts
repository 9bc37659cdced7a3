/**
 * Stand-in https servers for the outbound tests (decision 018): real TLS on 127.0.0.1 with a self-signed
 * certificate made in the test (selfsigned) for a few `.test` names, and the safe fetch's test network that
 * points those names at 127.0.0.1 and trusts that certificate. Addresses typed as such (127.0.0.1,
 * localhost through real DNS) still meet the production rules, so the tests can show them refused.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { expect } from 'vitest';
import { SafeFetchError, useTestNetwork } from '../../src/server/http/safe-fetch';

/** The names the certificate carries and the test network answers for. */
export const STAND_IN_HOSTS = ['llm.test', 'other.test', 'redirector.test'] as const;
export type StandInHost = (typeof STAND_IN_HOSTS)[number];

let certificate: Promise<{ cert: string; key: string }> | undefined;

/** One certificate per test file (EC keys: made in milliseconds). */
export function standInCertificate(): Promise<{ cert: string; key: string }> {
  certificate ??= generate([{ name: 'commonName', value: STAND_IN_HOSTS[0] }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - 60_000),
    notAfterDate: new Date(Date.now() + 24 * 3600_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'subjectAltName', altNames: STAND_IN_HOSTS.map((value) => ({ type: 2 as const, value })) },
    ],
  }).then((pems) => ({ cert: pems.cert, key: pems.private }));
  return certificate;
}

/** Lets the safe fetch reach the stand-ins by name (and only them). */
export async function useStandInNetwork(): Promise<void> {
  const { cert } = await standInCertificate();
  useTestNetwork({ hosts: Object.fromEntries(STAND_IN_HOSTS.map((h) => [h, '127.0.0.1'])), ca: cert });
}

export interface StandInServer {
  port: number;
  /** "https://llm.test:54321" (or http:// for a plain server). */
  origin(host?: StandInHost): string;
  close(): Promise<void>;
}

/** A server on 127.0.0.1, a random port: https with the stand-in certificate unless `plain`. */
export async function startStandIn(handler: http.RequestListener, { plain = false } = {}): Promise<StandInServer> {
  const server = plain ? http.createServer(handler) : https.createServer(await standInCertificate(), handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: (host = 'llm.test') => `${plain ? 'http' : 'https'}://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The SafeFetchError a promise rejects with (the test fails when it resolves or rejects with anything else). */
export async function safeFetchFailure(promise: Promise<unknown>): Promise<SafeFetchError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SafeFetchError);
  return err as SafeFetchError;
}
