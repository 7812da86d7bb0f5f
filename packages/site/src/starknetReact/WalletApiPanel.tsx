import React, { useState } from 'react';
import { mainnet } from '@starknet-react/chains';
import { useAccount, type Connector } from '@starknet-react/core';
import { WALLET_API_METHODS } from '@l2wallet/client';
import { STRK_ADDRESS } from '../utils/config';
// Sierra of a tiny counter contract (the same class the playground page declares).
import { COUNTER_CLASS, COUNTER_COMPILED_CLASS_HASH } from '../utils/examples';
import { errorOutcome, okOutcome, type Outcome } from '../utils/outcome';
import { typedDataFor } from './typedData';
import { ResultView } from '../components/ResultView';

/** Example params for each wallet API request the panel can send. */
function exampleParams(type: string, chainId: bigint | undefined): unknown {
  switch (type) {
    case 'wallet_switchStarknetChain':
      return { chainId: chainId === mainnet.id ? 'SN_SEPOLIA' : 'SN_MAIN' };
    case 'wallet_addStarknetChain':
      return { id: 'sepolia', chain_id: 'SN_SEPOLIA', chain_name: 'Starknet Sepolia' };
    case 'wallet_watchAsset':
      return { type: 'ERC20', options: { address: STRK_ADDRESS, symbol: 'STRK', decimals: 18 } };
    case 'wallet_signTypedData':
      return typedDataFor(chainId, 'Signed from the wallet API panel');
    case 'wallet_addInvokeTransaction':
      return {
        calls: [
          { contract_address: STRK_ADDRESS, entry_point: 'transfer', calldata: ['0x1', '1', '0'] },
        ],
      };
    case 'wallet_addDeclareTransaction':
      return { compiled_class_hash: COUNTER_COMPILED_CLASS_HASH, contract_class: COUNTER_CLASS };
    case 'wallet_requestAccounts':
      return { silent_mode: false };
    default:
      return undefined;
  }
}

/** Every request of the wallet API, sent through the connector; each keeps its own result. */
export function WalletApiPanel({ connector }: { connector: Connector | undefined }) {
  const { chainId } = useAccount();
  const [outcomes, setOutcomes] = useState<Record<string, Outcome>>({});
  const call = async (type: string) => {
    if (!connector) return;
    const params = exampleParams(type, chainId);
    try {
      const result = await connector.request(
        (params === undefined ? { type } : { type, params }) as never,
      );
      setOutcomes((old) => ({ ...old, [type]: okOutcome(result) }));
    } catch (error) {
      setOutcomes((old) => ({ ...old, [type]: errorOutcome(error) }));
    }
  };
  return (
    <section className="card panel" data-testid="wallet-api-panel">
      <header className="card-head">
        <h2>Wallet API</h2>
        <span className="mono small muted">connector.request</span>
      </header>
      <p className="summary">
        Every request of the Starknet wallet API, sent through the starknet-react connector to the
        wallet's <span className="mono">starknet:walletApi</span> feature.
      </p>
      <ul className="wallet-api">
        {WALLET_API_METHODS.map((type) => (
          <li key={type} data-testid={`wallet-api-${type}`}>
            <button
              type="button"
              className="btn btn-small"
              disabled={!connector}
              onClick={() => call(type)}
            >
              {type}
            </button>
            {outcomes[type] && (
              <ResultView outcome={outcomes[type]} testId={`wallet-api-result-${type}`} />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
