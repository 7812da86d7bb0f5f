import React, { useCallback, useState } from 'react';
import {
  bundlerRequest,
  type Hex,
  type KeyringAccount,
  type UserOperation,
} from '@l2wallet/client';
import { exampleTypedData } from '../utils/evmTypedData';
import { useKeyring } from '../hooks/useKeyring';

type Output = { label: string; value: unknown } | { label: string; error: string };

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

export function EvmAccountsPanel() {
  const { client, status, connected, accounts, chain, account, select, ...keyring } = useKeyring();
  const selected = account?.id ?? '';
  const [message, setMessage] = useState('Hello, EVM accounts!');
  const [output, setOutput] = useState<Output | null>(null);
  const [busy, setBusy] = useState(false);

  const run = useCallback(async (label: string, task: () => Promise<unknown>) => {
    setBusy(true);
    try {
      setOutput({ label, value: await task() });
    } catch (error) {
      const { code, message: text } = error as { code?: number; message?: string };
      setOutput({ label, error: `${code ?? ''} ${text ?? String(error)}`.trim() });
    } finally {
      setBusy(false);
    }
  }, []);

  const connect = () => run('Connect', keyring.connect);

  const create = (type: KeyringAccount['type']) =>
    run(`Create ${type}`, () => keyring.createAccount(type));

  const signMessage = () =>
    run('personal_sign', async () => client!.personalSign(account!.address, message));

  const signTypedData = () =>
    run('eth_signTypedData_v4', async () =>
      client!.signTypedData(account!.address, exampleTypedData(chain!.chainId, account!.address)),
    );

  const signTransaction = () =>
    run('eth_signTransaction', async () => {
      const nonce = await bundlerRequest<Hex>(chain!.rpcUrl, 'eth_getTransactionCount', [
        account!.address,
        'latest',
      ]);
      return client!.signTransaction({
        type: '0x2',
        nonce,
        from: account!.address,
        to: account!.address,
        value: '0x0',
        data: '0x',
        gasLimit: '0x5208',
        maxFeePerGas: '0x77359400',
        maxPriorityFeePerGas: '0x3b9aca00',
        chainId: `0x${chain!.chainId.toString(16)}`,
      });
    });

  const sendUserOperation = () =>
    run('User operation', async () => {
      const sender = account!.address;
      const details = await client!.prepareUserOperation(sender, [
        { to: sender, value: '0x0', data: '0x' },
      ]);
      const gasPrice = await bundlerRequest<Hex>(chain!.rpcUrl, 'eth_gasPrice', []);
      const fee = `0x${(BigInt(gasPrice) * 2n).toString(16)}` as Hex;
      const unestimated: UserOperation = {
        sender,
        nonce: details.nonce,
        initCode: details.initCode,
        callData: details.callData,
        callGasLimit: '0x0',
        verificationGasLimit: '0x0',
        preVerificationGas: '0x0',
        maxFeePerGas: '0x0',
        maxPriorityFeePerGas: '0x0',
        paymasterAndData: details.dummyPaymasterAndData,
        signature: details.dummySignature,
      };
      // prepare leaves gasLimits out when the bundler could not estimate (the snap logs why):
      // then ask the bundler here, as MetaMask does, with the same no-prefund draft.
      const gasLimits =
        details.gasLimits ??
        (await bundlerRequest<NonNullable<typeof details.gasLimits>>(
          details.bundlerUrl,
          'eth_estimateUserOperationGas',
          [unestimated, chain!.entryPoint],
        ));
      const draft: UserOperation = {
        ...unestimated,
        callGasLimit: gasLimits.callGasLimit,
        verificationGasLimit: gasLimits.verificationGasLimit,
        preVerificationGas: gasLimits.preVerificationGas,
        maxFeePerGas: fee,
        maxPriorityFeePerGas: fee,
      };
      const patched = { ...draft, ...(await client!.patchUserOperation(draft)) };
      const signature = await client!.signUserOperation(patched, chain!.entryPoint);
      const operation = { ...patched, signature };
      const hash = await bundlerRequest<Hex>(details.bundlerUrl, 'eth_sendUserOperation', [
        operation,
        chain!.entryPoint,
      ]);
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const receipt = await bundlerRequest<{
          success: boolean;
          receipt: { transactionHash: Hex };
        } | null>(details.bundlerUrl, 'eth_getUserOperationReceipt', [hash]);
        if (receipt) {
          const balance = await bundlerRequest<Hex>(chain!.rpcUrl, 'eth_getBalance', [
            sender,
            'latest',
          ]);
          return {
            userOpHash: hash,
            success: receipt.success,
            transactionHash: receipt.receipt.transactionHash,
            sponsored: operation.paymasterAndData !== '0x',
            accountBalanceWei: BigInt(balance).toString(),
          };
        }
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      throw new Error(`No receipt for ${hash} yet`);
    });

  const isSmart = account?.type === 'eip155:erc4337';
  return (
    <main className="content">
      <section className="card panel" data-testid="evm-connect">
        <header className="card-head">
          <h2>Keyring snap</h2>
          {connected ? (
            <span className="badge badge-ok">Connected</span>
          ) : (
            <span className="badge">Not connected</span>
          )}
        </header>
        <p className="muted small">{status}</p>
        {chain && (
          <p className="mono small" data-testid="evm-chain">
            chain {chain.chainId} · bundler {chain.bundlerUrl} · entry point {chain.entryPoint}
            {chain.paymasterUrl ? ` · paymaster ${chain.paymasterUrl}` : ''}
          </p>
        )}
        <div className="row">
          <button className="btn btn-primary" disabled={!client || busy} onClick={connect}>
            Connect
          </button>
          <button
            className="btn"
            disabled={!connected || busy}
            onClick={() => create('eip155:eoa')}
          >
            Create EOA
          </button>
          <button
            className="btn"
            disabled={!connected || busy}
            onClick={() => create('eip155:erc4337')}
          >
            Create 4337 account
          </button>
        </div>
      </section>

      <section className="card panel" data-testid="evm-accounts">
        <header className="card-head">
          <h2>Accounts</h2>
        </header>
        {accounts.length === 0 && <p className="muted">No accounts yet.</p>}
        <ul className="plain-list">
          {accounts.map((entry) => (
            <li key={entry.id}>
              <label>
                <input
                  type="radio"
                  name="evm-account"
                  checked={entry.id === selected}
                  onChange={() => select(entry.id)}
                />{' '}
                <span className="mono small">{entry.address}</span>{' '}
                <span className="badge">{entry.type === 'eip155:eoa' ? 'EOA' : 'ERC-4337'}</span>
              </label>
            </li>
          ))}
        </ul>
      </section>

      <section className="card panel" data-testid="evm-actions">
        <header className="card-head">
          <h2>Sign and send</h2>
        </header>
        <label className="small">
          Message{' '}
          <input
            data-testid="evm-message"
            value={message}
            onChange={(event) => setMessage(event.target.value)}
          />
        </label>
        <div className="row">
          <button className="btn" disabled={!account || busy} onClick={signMessage}>
            Sign message
          </button>
          <button className="btn" disabled={!account || !chain || busy} onClick={signTypedData}>
            Sign typed data
          </button>
          <button
            className="btn"
            disabled={!account || !chain || isSmart || busy}
            onClick={signTransaction}
          >
            Sign transaction
          </button>
          <button
            className="btn"
            disabled={!account || !chain || !isSmart || busy}
            onClick={sendUserOperation}
          >
            Send user operation
          </button>
        </div>
        {output && (
          <div data-testid="evm-output">
            <h3>{output.label}</h3>
            {'error' in output ? (
              <pre className="error-text">{output.error}</pre>
            ) : (
              <pre className="mono small">{show(output.value)}</pre>
            )}
          </div>
        )}
      </section>
    </main>
  );
}
