import React, { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  MAINNET_CHAIN_ID,
  SnapsNotSupportedError,
  StarknetSnapClient,
  TESTNET_CHAIN_ID,
  discoverProvider,
  type InstalledSnap,
  type Network,
  type TransactionRecord,
} from '@l2wallet/client';
import { readConfig, type SiteConfig } from '../config';
import { devnetChainId, mintStrk } from '../devnet';
import { CHAINS, METHODS, type DefaultsContext } from '../methods';
import { startPolling } from '../polling';
import { GetStarknetPanel } from './GetStarknetPanel';
import { MethodCard } from './MethodCard';
import { CopyButton, ResultView, errorOutcome, okOutcome, type Outcome } from './ResultView';
import { Transactions, isPending, short, type TrackedTx } from './Transactions';

type WalletState =
  | { phase: 'detecting' }
  | { phase: 'no-wallet' }
  | { phase: 'no-snaps'; message: string }
  | { phase: 'ready'; source: string; name: string };

interface Account {
  address: string;
  addressIndex: number;
  deployed?: boolean;
}

const FUND_AMOUNT_FRI = 100n * 10n ** 18n; // 100 STRK
const POLL_MS = 1500;
const GROUPS = ['Accounts', 'Network', 'Signing', 'Transactions', 'Tokens'] as const;

function walletLabel(source: string): string {
  if (source === 'io.metamask.flask') return 'MetaMask Flask';
  if (source === 'io.metamask') return 'MetaMask';
  return 'Injected wallet (window.ethereum)';
}

function transactionHashOf(result: unknown): string | null {
  if (typeof result === 'object' && result !== null) {
    const hash = (result as { transaction_hash?: unknown }).transaction_hash;
    if (typeof hash === 'string' && hash.length > 0) return hash;
  }
  return null;
}

export function App() {
  const [config, setConfig] = useState<SiteConfig | null>(null);
  const [wallet, setWallet] = useState<WalletState>({ phase: 'detecting' });
  const [client, setClient] = useState<StarknetSnapClient | null>(null);
  const [snap, setSnap] = useState<InstalledSnap | null>(null);
  const [connectOutcome, setConnectOutcome] = useState<Outcome | null>(null);
  const [connecting, setConnecting] = useState(false);
  const [network, setNetwork] = useState<Network | null>(null);
  const [targetChain, setTargetChain] = useState(MAINNET_CHAIN_ID);
  const [networkOutcome, setNetworkOutcome] = useState<Outcome | null>(null);
  const [devnetChain, setDevnetChain] = useState<string | null>(null);
  const [accounts, setAccounts] = useState<Account[]>([]);
  const [selected, setSelected] = useState<string>('');
  const [accountOutcome, setAccountOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [lastSignature, setLastSignature] = useState('');
  const [txs, setTxs] = useState<TrackedTx[]>([]);
  const txsRef = useRef(txs);
  txsRef.current = txs;

  const chainId = network?.chainId ?? TESTNET_CHAIN_ID;
  const connected = client !== null && snap !== null;
  const isLocal = devnetChain !== null && network !== null && devnetChain === network.chainId;

  // ---- discovery ----
  useEffect(() => {
    const cfg = readConfig(window.location.search);
    setConfig(cfg);
    let cancelled = false;
    (async () => {
      const found = await discoverProvider({ timeoutMs: 800 });
      if (cancelled) return;
      if (!found) {
        setWallet({ phase: 'no-wallet' });
        return;
      }
      const snapClient = new StarknetSnapClient({
        provider: found.provider,
        snapId: cfg.snapId,
        version: cfg.snapVersion,
      });
      try {
        const installed = await snapClient.getInstalledSnap();
        if (cancelled) return;
        setWallet({
          phase: 'ready',
          source: found.source,
          name: found.info?.name ?? walletLabel(found.source),
        });
        setClient(snapClient);
        if (installed) setSnap(installed);
      } catch (error) {
        if (error instanceof SnapsNotSupportedError)
          setWallet({ phase: 'no-snaps', message: error.message });
        else setWallet({ phase: 'no-snaps', message: String(error) });
      }
    })();
    devnetChainId(cfg.devnetRpcUrl).then((id) => !cancelled && setDevnetChain(id));
    return () => {
      cancelled = true;
    };
  }, []);

  // ---- network and accounts ----
  const loadNetwork = useCallback(async (snapClient: StarknetSnapClient) => {
    try {
      const current = await snapClient.getCurrentNetwork();
      setNetwork(current);
      setTargetChain(current.chainId === MAINNET_CHAIN_ID ? TESTNET_CHAIN_ID : MAINNET_CHAIN_ID);
      return current;
    } catch (error) {
      setNetworkOutcome(errorOutcome(error));
      return null;
    }
  }, []);

  // Accounts are per network; the ones created here are remembered so that switching away and
  // back lists them again (recovery stops at the first undeployed index).
  const knownAccounts = useRef<Record<string, Account[]>>({});
  const selectedByChain = useRef<Record<string, string>>({});
  const chainRef = useRef(TESTNET_CHAIN_ID);
  chainRef.current = network?.chainId ?? TESTNET_CHAIN_ID;
  if (selected) selectedByChain.current[chainRef.current] = selected;

  const mergeAccounts = (old: Account[], more: Account[]) => {
    const byAddress = new Map(old.map((a) => [a.address, a]));
    for (const account of more)
      byAddress.set(account.address, { ...byAddress.get(account.address), ...account });
    return [...byAddress.values()].sort((a, b) => a.addressIndex - b.addressIndex);
  };

  const addAccount = useCallback((account: Account) => {
    const chain = chainRef.current;
    knownAccounts.current[chain] = mergeAccounts(knownAccounts.current[chain] ?? [], [account]);
    setAccounts((old) => mergeAccounts(old, [account]));
    setSelected((current) => current || account.address);
  }, []);

  const recover = useCallback(
    async (snapClient: StarknetSnapClient, onChain: string, quiet: boolean) => {
      try {
        const records = await snapClient.recoverAccounts({
          startScanIndex: 0,
          maxScanned: 5,
          maxMissed: 1,
          chainId: onChain,
        });
        const found = records.map((r) => ({
          address: r.address,
          addressIndex: r.addressIndex,
          deployed: Boolean(r.deployTxnHash),
        }));
        const all = mergeAccounts(knownAccounts.current[onChain] ?? [], found);
        setAccounts(all);
        const remembered = selectedByChain.current[onChain];
        setSelected((current) =>
          all.some((a) => a.address === current)
            ? current
            : all.some((a) => a.address === remembered)
              ? remembered
              : (all[0]?.address ?? ''),
        );
        if (!quiet) setAccountOutcome(okOutcome(records));
      } catch (error) {
        if (!quiet) setAccountOutcome(errorOutcome(error));
      }
    },
    [],
  );

  useEffect(() => {
    if (!client || !snap) return;
    void (async () => {
      const current = await loadNetwork(client);
      if (current) await recover(client, current.chainId, true);
    })();
  }, [client, snap, loadNetwork, recover]);

  // ---- actions ----
  const connect = async () => {
    if (!client) return;
    setConnecting(true);
    setConnectOutcome(null);
    try {
      const installed = await client.connect();
      setSnap(installed);
      setConnectOutcome(okOutcome(`Installed ${installed.id} version ${installed.version}`));
    } catch (error) {
      setConnectOutcome(errorOutcome(error));
    } finally {
      setConnecting(false);
    }
  };

  const switchNetwork = async () => {
    if (!client) return;
    setBusy('switch');
    setNetworkOutcome(null);
    try {
      const switched = await client.switchNetwork({ chainId: targetChain });
      setNetworkOutcome(
        okOutcome(switched ? 'Switched.' : 'The snap did not switch (returned false).'),
      );
      const current = await loadNetwork(client);
      if (switched && current) {
        setAccounts([]);
        setSelected('');
        await recover(client, current.chainId, true);
      }
    } catch (error) {
      setNetworkOutcome(errorOutcome(error));
    } finally {
      setBusy(null);
    }
  };

  const createAccount = async (deploy: boolean, addressIndex?: number) => {
    if (!client) return;
    const index =
      addressIndex ?? (accounts.length ? Math.max(...accounts.map((a) => a.addressIndex)) + 1 : 0);
    setBusy(deploy ? `deploy-${index}` : 'create');
    setAccountOutcome(null);
    try {
      const result = await client.createAccount({ addressIndex: index, deploy, chainId });
      addAccount({ address: result.address, addressIndex: index, deployed: deploy || undefined });
      setSelected(result.address);
      setAccountOutcome(okOutcome(result));
      const hash = transactionHashOf(result);
      if (hash) trackTx(hash, `Deploy account #${index}`, chainId);
    } catch (error) {
      setAccountOutcome(errorOutcome(error));
    } finally {
      setBusy(null);
    }
  };

  const fund = async (address: string) => {
    if (!config) return;
    setBusy(`fund-${address}`);
    setAccountOutcome(null);
    try {
      const minted = await mintStrk(config.devnetRpcUrl, address, FUND_AMOUNT_FRI);
      setAccountOutcome(okOutcome({ funded: address, amount: '100 STRK', ...minted }));
    } catch (error) {
      setAccountOutcome(errorOutcome(error));
    } finally {
      setBusy(null);
    }
  };

  // ---- transactions ----
  const trackTx = useCallback((hash: string, label: string, txChainId: string) => {
    setTxs((old) =>
      old.some((t) => t.hash === hash)
        ? old
        : [{ hash, label, chainId: txChainId, status: 'RECEIVED', updatedAt: Date.now() }, ...old],
    );
  }, []);

  // Each pending transaction is polled on its own chain (a network switch does not move it),
  // one status request at a time.
  const pending = txs.some(isPending);
  useEffect(() => {
    if (!client || !pending) return;
    return startPolling({
      client,
      intervalMs: POLL_MS,
      pending: () => txsRef.current.filter(isPending),
      onStatus: (hash, status) =>
        setTxs((old) =>
          old.map((t) =>
            t.hash === hash ? { ...t, status, updatedAt: Date.now(), pollError: undefined } : t,
          ),
        ),
      onError: (hash, error) =>
        setTxs((old) =>
          old.map((t) => (t.hash === hash ? { ...t, pollError: (error as Error).message } : t)),
        ),
    });
  }, [client, pending]);

  const loadTransactions = async () => {
    if (!client || !selected) return;
    try {
      const records: TransactionRecord[] = await client.getTransactions({
        senderAddress: selected,
        withDeployTxn: true,
        chainId,
      });
      setTxs((old) => {
        const byHash = new Map(old.map((t) => [t.hash, t]));
        for (const record of records) {
          const label = record.contractFuncName || record.txnType;
          byHash.set(record.txnHash, {
            hash: record.txnHash,
            label: byHash.get(record.txnHash)?.label ?? label,
            chainId: record.chainId || chainId,
            status: record.status,
            failureReason: record.failureReason,
            updatedAt: Date.now(),
          });
        }
        return [...byHash.values()];
      });
    } catch (error) {
      setAccountOutcome(errorOutcome(error));
    }
  };

  const onResult = useCallback(
    (method: string, params: Record<string, unknown> | undefined, result: unknown) => {
      if (method === 'l2_signMessage') {
        setLastSignature(Array.isArray(result) ? result.join(',') : String(result));
      }
      if (method === 'l2_createAccount' && typeof result === 'object' && result !== null) {
        const address = (result as { address?: string }).address;
        if (address) addAccount({ address, addressIndex: Number(params?.addressIndex ?? 0) });
      }
      if (method === 'l2_switchNetwork' && client) void loadNetwork(client);
      const hash = transactionHashOf(result);
      // Sent on the chain the params name, else on the network current at the call.
      const txChainId =
        typeof params?.chainId === 'string' && params.chainId ? params.chainId : chainRef.current;
      if (hash) trackTx(hash, method.replace(/^l2_/, ''), txChainId);
    },
    [client, addAccount, loadNetwork, trackTx],
  );

  const onWalletNetworkChanged = useCallback(() => {
    if (!client) return;
    void (async () => {
      const current = await loadNetwork(client);
      if (current) await recover(client, current.chainId, true);
    })();
  }, [client, loadNetwork, recover]);

  // Depend only on what the defaults use: `txs` is a new array after every status poll, and a
  // new defaults object would refill every card's form.
  const lastTxHash = txs[0]?.hash ?? '';
  const nextIndex = accounts.length ? Math.max(...accounts.map((a) => a.addressIndex)) + 1 : 0;
  const defaults: DefaultsContext = useMemo(
    () => ({ address: selected, nextIndex, chainId, lastSignature, lastTxHash }),
    [selected, nextIndex, chainId, lastSignature, lastTxHash],
  );

  // ---- render ----
  return (
    <div className="page">
      <header className="hero">
        <div className="hero-inner">
          <div>
            <h1>Starknet Snap playground</h1>
            <p>
              Create Starknet accounts in MetaMask, sign, send and declare — every snap method, one
              page. <a href="/gateway/">Node gateway credits →</a>{' '}
              <a href="/evm/">EVM accounts →</a>{' '}
              <a href="/starknet-react/">starknet-react dapp →</a>
            </p>
          </div>
          <div className="wallet-box" data-testid="wallet-status">
            {wallet.phase === 'detecting' && <span>Looking for a wallet…</span>}
            {wallet.phase === 'no-wallet' && (
              <span className="error-text">
                No wallet found. Install <a href="https://metamask.io/flask/">MetaMask Flask</a> and
                reload.
              </span>
            )}
            {wallet.phase === 'no-snaps' && <span className="error-text">{wallet.message}</span>}
            {wallet.phase === 'ready' && (
              <>
                <span className="dot dot-ok" /> {wallet.name}{' '}
                <span className="muted small">({wallet.source})</span>
              </>
            )}
          </div>
        </div>
      </header>

      <main className="content">
        <div className="top-grid">
          <section className="card panel" data-testid="connect-panel">
            <header className="card-head">
              <h2>Snap</h2>
              {connected ? (
                <span className="badge badge-ok">Connected</span>
              ) : (
                <span className="badge">Not connected</span>
              )}
            </header>
            <p className="mono small">
              {config?.snapId ?? '…'}{' '}
              <span className="muted">version {config?.snapVersion ?? '*'}</span>
            </p>
            {snap && (
              <p>
                Installed version <strong>{snap.version}</strong>
              </p>
            )}
            <button
              type="button"
              className="btn btn-primary"
              onClick={connect}
              disabled={wallet.phase !== 'ready' || connecting}
            >
              {connecting
                ? 'Waiting for the wallet…'
                : connected
                  ? 'Reinstall / update snap'
                  : 'Connect'}
            </button>
            <ResultView outcome={connectOutcome} testId="connect-result" />
          </section>

          <section className="card panel" data-testid="network-panel">
            <header className="card-head">
              <h2>Network</h2>
              {isLocal && <span className="badge badge-local">Local devnet</span>}
            </header>
            {network ? (
              <p data-testid="current-network">
                <strong>{network.name}</strong>{' '}
                <span className="mono small muted">{network.chainId}</span>
              </p>
            ) : (
              <p className="muted">{connected ? 'Reading…' : 'Connect to see the network.'}</p>
            )}
            <div className="row">
              <select
                aria-label="Network to switch to"
                value={targetChain}
                onChange={(e) => setTargetChain(e.target.value)}
                disabled={!connected}
              >
                {CHAINS.map((c) => (
                  <option key={c.chainId} value={c.chainId}>
                    {c.name}
                  </option>
                ))}
              </select>
              <button
                type="button"
                className="btn"
                onClick={switchNetwork}
                disabled={!connected || busy !== null || targetChain === network?.chainId}
              >
                {busy === 'switch' ? 'Waiting…' : 'Switch network'}
              </button>
            </div>
            <ResultView outcome={networkOutcome} testId="network-result" />
          </section>
        </div>

        <section className="card panel" data-testid="accounts-panel">
          <header className="card-head">
            <h2>Accounts</h2>
            <div className="row">
              <button
                type="button"
                className="btn btn-primary"
                onClick={() => createAccount(false)}
                disabled={!connected || busy !== null}
              >
                {busy === 'create' ? 'Waiting…' : 'Create account'}
              </button>
              <button
                type="button"
                className="btn"
                onClick={() => {
                  if (!client) return;
                  setAccountOutcome(null);
                  void recover(client, chainId, false);
                }}
                disabled={!connected || busy !== null}
              >
                Recover accounts
              </button>
            </div>
          </header>
          {accounts.length === 0 ? (
            <p className="muted">{connected ? 'No accounts yet: create one.' : 'Connect first.'}</p>
          ) : (
            <ul className="accounts">
              {accounts.map((account) => (
                <li
                  key={account.address}
                  className={account.address === selected ? 'account selected' : 'account'}
                  data-testid="account-row"
                >
                  <label className="account-pick">
                    <input
                      type="radio"
                      name="account"
                      checked={account.address === selected}
                      onChange={() => setSelected(account.address)}
                    />
                    <span className="muted">#{account.addressIndex}</span>
                    <span className="mono" title={account.address}>
                      {short(account.address, 8)}
                    </span>
                  </label>
                  <CopyButton text={account.address} label="Copy address" />
                  {isLocal && (
                    <button
                      type="button"
                      className="btn btn-small"
                      onClick={() => fund(account.address)}
                      disabled={busy !== null}
                    >
                      {busy === `fund-${account.address}` ? 'Funding…' : 'Fund from devnet'}
                    </button>
                  )}
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={() => createAccount(true, account.addressIndex)}
                    disabled={busy !== null}
                  >
                    {busy === `deploy-${account.addressIndex}` ? 'Deploying…' : 'Deploy'}
                  </button>
                </li>
              ))}
            </ul>
          )}
          <ResultView outcome={accountOutcome} testId="account-result" />
        </section>

        <Transactions
          txs={txs}
          polling={pending && connected}
          onRefresh={loadTransactions}
          canRefresh={connected && !!selected}
        />

        <GetStarknetPanel
          client={connected ? client : null}
          onNetworkChanged={onWalletNetworkChanged}
        />

        {GROUPS.map((group) => (
          <section key={group} className="group">
            <h2 className="group-title">{group}</h2>
            <div className="cards">
              {METHODS.filter((m) => m.group === group).map((spec) => (
                <MethodCard
                  key={spec.method}
                  spec={spec}
                  client={connected ? client : null}
                  defaults={defaults}
                  onResult={onResult}
                />
              ))}
            </div>
          </section>
        ))}
      </main>
      <footer className="footer muted small">
        Calls go through <span className="mono">@l2wallet/client</span> →{' '}
        <span className="mono">wallet_invokeSnap</span>.{' '}
        {config && (
          <>
            Devnet: <span className="mono">{config.devnetRpcUrl}</span>{' '}
            {devnetChain ? `(chain ${devnetChain})` : '(not reachable)'}
            <CopyButton text={config.devnetRpcUrl} />
          </>
        )}
      </footer>
    </div>
  );
}
