/**
 * A dapp built on @starknet-react/core, as a Starknet developer would write it: the wallet is
 * found through the Wallet Standard (setupStarknetSnap registers the snap there), then connect,
 * address and STRK balance, a STRK transfer, typed data signing, and every wallet API request.
 */
import React, { useEffect, useMemo, useState } from 'react';
import { mainnet, sepolia, type Chain } from '@starknet-react/chains';
import {
  StarknetConfig,
  jsonRpcProvider,
  useAccount,
  useBalance,
  useConnect,
  useDisconnect,
  useNetwork,
  useSendTransaction,
  useSignTypedData,
  useTransactionReceipt,
  type Connector,
} from '@starknet-react/core';
import { WALLET_API_METHODS, setupStarknetSnap } from '@l2wallet/client';
import { STRK_ADDRESS, readConfig, type SiteConfig } from '../config';
// Sierra of a tiny counter contract (the same class the playground page declares).
import COUNTER_CLASS from '../counter.contract_class.json';
import { COUNTER_COMPILED_CLASS_HASH } from '../methods';
import { mintStrk } from '../devnet';
import { typedDataFor } from '../starknetReact/typedData';
import { useWalletStandardConnectors } from '../starknetReact/walletStandardConnector';
import { ResultView, errorOutcome, okOutcome, type Outcome } from './ResultView';

const STRK_UNIT = 10n ** 18n;

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

function WalletApiPanel({ connector }: { connector: Connector | undefined }) {
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

function Dapp({ config }: { config: SiteConfig }) {
  const { connect, connectors, error: connectError } = useConnect();
  const { disconnect } = useDisconnect();
  const { address, status, chainId, connector } = useAccount();
  const { chain } = useNetwork();
  const balance = useBalance({ address, token: STRK_ADDRESS, refetchInterval: 1500 });
  const [recipient, setRecipient] = useState('0x' + '7'.repeat(63));
  const [amount, setAmount] = useState('1');
  const [fundOutcome, setFundOutcome] = useState<Outcome | null>(null);
  const amountFri = useMemo(() => {
    const [whole, fraction = ''] = amount.trim().split('.');
    if (!/^\d+$/.test(whole || '0') || !/^\d*$/.test(fraction)) return 0n;
    return BigInt(whole || '0') * STRK_UNIT + BigInt((fraction + '0'.repeat(18)).slice(0, 18));
  }, [amount]);
  const transfer = useSendTransaction({
    calls: [
      {
        contractAddress: STRK_ADDRESS,
        entrypoint: 'transfer',
        calldata: [
          recipient,
          (amountFri & (2n ** 128n - 1n)).toString(),
          (amountFri >> 128n).toString(),
        ],
      },
    ],
  });
  const receipt = useTransactionReceipt({
    hash: transfer.data?.transaction_hash,
    refetchInterval: (query) => (query.state.data ? false : 1000),
  });
  const [contents, setContents] = useState('Hello from starknet-react');
  const sign = useSignTypedData({ params: typedDataFor(chainId, contents) as never });

  const fund = async () => {
    if (!address) return;
    try {
      await mintStrk(config.devnetRpcUrl, address, 100n * STRK_UNIT);
      setFundOutcome(okOutcome('Minted 100 STRK on the local devnet'));
      await balance.refetch();
    } catch (error) {
      setFundOutcome(errorOutcome(error));
    }
  };

  return (
    <>
      <section className="card panel" data-testid="sr-connect-panel">
        <header className="card-head">
          <h2>Wallets (Wallet Standard)</h2>
          <span className="mono small muted">useConnect</span>
        </header>
        {connectors.length === 0 && <p data-testid="sr-no-wallet">No Starknet wallet found yet.</p>}
        <div className="row">
          {connectors.map((candidate) => (
            <button
              key={candidate.id}
              type="button"
              className="btn"
              data-testid={`sr-connect-${candidate.id}`}
              disabled={status === 'connected'}
              onClick={() => connect({ connector: candidate })}
            >
              {typeof candidate.icon === 'object' && candidate.icon.light && (
                <img src={candidate.icon.light} alt="" width={16} height={16} />
              )}{' '}
              Connect {candidate.name}
            </button>
          ))}
          {status === 'connected' && (
            <button type="button" className="btn btn-small" onClick={() => disconnect()}>
              Disconnect
            </button>
          )}
        </div>
        {connectError && <p className="error">{connectError.message}</p>}
        <dl className="facts" data-testid="sr-account">
          <dt>Status</dt>
          <dd>{status}</dd>
          <dt>Address</dt>
          <dd className="mono">{address ?? '-'}</dd>
          <dt>Network</dt>
          <dd className="mono">
            {chain.name} ({chainId === undefined ? '-' : `0x${chainId.toString(16)}`})
          </dd>
          <dt>Balance</dt>
          <dd className="mono" data-testid="sr-balance">
            {balance.data ? `${balance.data.formatted} ${balance.data.symbol}` : '-'}
          </dd>
        </dl>
        {address && chainId === sepolia.id && (
          <div className="row">
            <button type="button" className="btn btn-small" onClick={fund}>
              Fund with 100 STRK (local devnet)
            </button>
            <ResultView outcome={fundOutcome} testId="sr-fund-result" />
          </div>
        )}
      </section>

      <section className="card panel" data-testid="sr-transfer-panel">
        <header className="card-head">
          <h2>Send STRK</h2>
          <span className="mono small muted">useSendTransaction</span>
        </header>
        <label>
          Recipient
          <input
            className="mono"
            data-testid="sr-recipient"
            value={recipient}
            onChange={(e) => setRecipient(e.target.value)}
          />
        </label>
        <label>
          Amount (STRK)
          <input
            data-testid="sr-amount"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
        </label>
        <button
          type="button"
          className="btn"
          disabled={!address || transfer.isPending}
          onClick={() => transfer.send()}
        >
          Send
        </button>
        <div data-testid="sr-transfer-result">
          {transfer.error && <p className="error">{transfer.error.message}</p>}
          {transfer.data && (
            <p className="mono small">
              {transfer.data.transaction_hash}:{' '}
              {receipt.data
                ? receipt.data.isSuccess()
                  ? 'SUCCEEDED'
                  : 'REVERTED'
                : 'waiting for the receipt'}
            </p>
          )}
        </div>
      </section>

      <section className="card panel" data-testid="sr-sign-panel">
        <header className="card-head">
          <h2>Sign typed data</h2>
          <span className="mono small muted">useSignTypedData</span>
        </header>
        <label>
          Message
          <input
            data-testid="sr-sign-contents"
            value={contents}
            onChange={(e) => setContents(e.target.value)}
          />
        </label>
        <button
          type="button"
          className="btn"
          disabled={!address || sign.isPending}
          onClick={() => sign.signTypedData()}
        >
          Sign
        </button>
        <div data-testid="sr-sign-result">
          {sign.error && <p className="error">{sign.error.message}</p>}
          {sign.data && <p className="mono small">{JSON.stringify(sign.data)}</p>}
        </div>
      </section>

      <WalletApiPanel connector={connector} />
    </>
  );
}

export function StarknetReactApp() {
  const [config, setConfig] = useState<SiteConfig | null>(null);
  const [setupError, setSetupError] = useState<string | null>(null);
  const connectors = useWalletStandardConnectors();

  useEffect(() => {
    const cfg = readConfig(window.location.search);
    setConfig(cfg);
    let unregister: (() => void) | undefined;
    let cancelled = false;
    setupStarknetSnap({ snapId: cfg.snapId, version: cfg.snapVersion, injectWindowObject: false })
      .then((setup) => {
        if (cancelled) setup.unregister();
        else unregister = setup.unregister;
      })
      .catch((error: unknown) =>
        setSetupError(error instanceof Error ? error.message : String(error)),
      );
    return () => {
      cancelled = true;
      unregister?.();
    };
  }, []);

  const chains: Chain[] = [sepolia, mainnet];
  const provider = useMemo(
    () =>
      jsonRpcProvider({
        rpc: (chain) => ({
          nodeUrl:
            chain.id === sepolia.id && config ? config.devnetRpcUrl : chain.rpcUrls.public.http[0],
        }),
      }),
    [config],
  );

  if (!config) return null;
  return (
    <StarknetConfig
      chains={chains}
      provider={provider}
      connectors={connectors}
      defaultChainId={sepolia.id}
    >
      {setupError && (
        <p className="error" data-testid="sr-setup-error">
          {setupError}
        </p>
      )}
      <Dapp config={config} />
    </StarknetConfig>
  );
}
