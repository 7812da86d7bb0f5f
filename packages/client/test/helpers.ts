/**
 * What the client's tests share: the wallet API's error check, and a client on a SimulatedFlask.
 */
import type { SimulatedFlask } from '@l2wallet/testkit';

import { StarknetSnapClient, WalletApiError, type Eip1193Provider } from '../src';

/** The promise rejects with a WalletApiError of this code whose message matches (when given). */
export async function expectWalletError(
  promise: Promise<unknown>,
  code: number,
  message?: RegExp,
): Promise<void> {
  const error = await promise.then(
    () => new Error(`expected WalletApiError ${code}, got a result`),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WalletApiError);
  expect({ code: (error as WalletApiError).code, message: (error as Error).message }).toEqual({
    code,
    message: message ? expect.stringMatching(message) : expect.any(String),
  });
}

/**
 * The client as a site's page reaches the snap: an EIP-1193 provider whose requests the simulated
 * MetaMask Flask answers for `origin` (MetaMask passes each request's origin to the snap).
 */
export function snapClientOn(flask: SimulatedFlask, origin: string): StarknetSnapClient {
  const provider: Eip1193Provider = {
    async request({ method, params }) {
      const reply = await flask.handle(method, params, origin);
      if (reply.error) throw reply.error;
      return reply.result;
    },
  };
  return new StarknetSnapClient({ provider, snapId: flask.snapId });
}
