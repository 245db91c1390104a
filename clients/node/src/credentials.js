// Channel credentials for a runsvc that uses TLS and API keys.

import { readFileSync } from 'node:fs';
import grpc from '@grpc/grpc-js';

/**
 * TLS channel credentials for RunsvcClient's `credentials` option: the
 * server verified against `ca` (a PEM file; the system roots when absent),
 * `cert`/`key` presented for mTLS, and `authorization: Bearer <token>` sent
 * on every call (the token defaults to RUNSVC_TOKEN).
 * @param {{ca?: string, cert?: string, key?: string, token?: string}} [opts] file paths and the API key
 * @returns {grpc.ChannelCredentials}
 */
export function tlsCredentials({ ca, cert, key, token = process.env.RUNSVC_TOKEN } = {}) {
  const read = (p) => (p ? readFileSync(p) : null);
  const channel = grpc.credentials.createSsl(read(ca), read(key), read(cert));
  if (!token) return channel;
  const bearer = grpc.credentials.createFromMetadataGenerator((_params, callback) => {
    const md = new grpc.Metadata();
    md.set('authorization', `Bearer ${token}`);
    callback(null, md);
  });
  return grpc.credentials.combineChannelCredentials(channel, bearer);
}
