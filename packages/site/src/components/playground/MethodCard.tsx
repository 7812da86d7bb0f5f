import React, { useEffect, useMemo, useRef, useState } from 'react';
import type { StarknetSnapClient } from '@l2wallet/client';
import { CHAINS } from '../../utils/methods';
import {
  buildParams,
  type DefaultsContext,
  type FieldValues,
  type MethodSpec,
  refillDefaults,
} from '../../utils/methodForm';
import { usePanel } from '../../hooks';
import { ResultView } from '../ResultView';

interface Props {
  spec: MethodSpec;
  client: StarknetSnapClient | null;
  defaults: DefaultsContext;
  onResult(method: string, params: Record<string, unknown> | undefined, result: unknown): void;
}

export function MethodCard({ spec, client, defaults, onResult }: Props) {
  const initial = useMemo(() => spec.defaults(defaults), [spec, defaults]);
  const [values, setValues] = useState<FieldValues>(initial);
  const panel = usePanel();
  const busy = panel.busy !== null;

  // Fields the user typed into keep their text; new defaults (another account, network,
  // signature) refill only the others.
  const edited = useRef(new Set<string>());
  useEffect(() => setValues((old) => refillDefaults(old, initial, edited.current)), [initial]);

  const set = (name: string, value: string) => {
    edited.current.add(name);
    setValues((old) => ({ ...old, [name]: value }));
  };

  const run = () =>
    panel.run('call', async () => {
      if (!client) return undefined;
      const params = buildParams(spec, values);
      const result = await spec.call(client, params ?? {});
      onResult(spec.method, params, result);
      return result;
    });

  return (
    <section className="card method-card" data-testid={`card-${spec.method}`} id={spec.method}>
      <header className="card-head">
        <h3>
          <code>{spec.method}</code>
        </h3>
        <span className="tag">{spec.group}</span>
      </header>
      <p className="summary">{spec.summary}</p>
      <form
        className="fields"
        onSubmit={(event) => {
          event.preventDefault();
          void run();
        }}
      >
        {spec.fields.length === 0 && <p className="muted">No parameters.</p>}
        {spec.fields.map((field) => {
          const id = `${spec.method}-${field.name}`;
          const value = values[field.name] ?? '';
          // What every kind of input shares: its identity, value and change handler.
          const control = {
            id,
            name: field.name,
            value,
            onChange: (
              e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>,
            ) => set(field.name, e.target.value),
          };
          let input: React.ReactNode;
          if (field.kind === 'boolean') {
            input = (
              <select {...control}>
                {field.optional && <option value="">(omit)</option>}
                <option value="false">false</option>
                <option value="true">true</option>
              </select>
            );
          } else if (field.kind === 'chain') {
            input = (
              <select {...control}>
                {field.optional && <option value="">(omit: snap default)</option>}
                {CHAINS.map((chain) => (
                  <option key={chain.chainId} value={chain.chainId}>
                    {chain.name} — {chain.chainId}
                  </option>
                ))}
              </select>
            );
          } else if (field.kind === 'json') {
            input = (
              <textarea
                {...control}
                rows={Math.min(10, Math.max(3, value.split('\n').length))}
                spellCheck={false}
              />
            );
          } else {
            input = (
              <input
                {...control}
                inputMode={field.kind === 'number' ? 'numeric' : undefined}
                spellCheck={false}
              />
            );
          }
          return (
            <label key={field.name} htmlFor={id} className="field">
              <span className="field-name">
                {field.name}
                {field.optional && <span className="muted"> optional</span>}
                {field.hint && <span className="muted"> · {field.hint}</span>}
              </span>
              {input}
            </label>
          );
        })}
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={!client || busy}>
            {busy ? 'Waiting for the wallet…' : 'Call'}
          </button>
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => setValues(initial)}
            disabled={busy}
          >
            Reset
          </button>
        </div>
      </form>
      <ResultView outcome={panel.outcome} testId={`result-${spec.method}`} />
    </section>
  );
}
