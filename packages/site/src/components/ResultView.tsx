import React, { useState } from 'react';
import { formatValue, type Outcome } from '../utils/outcome';

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Clipboard blocked (e.g. insecure origin): select-free fallback.
      const area = document.createElement('textarea');
      area.value = text;
      document.body.appendChild(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1200);
  };
  return (
    <button
      type="button"
      className="btn btn-ghost btn-small"
      onClick={copy}
      title="Copy to clipboard"
    >
      {copied ? 'Copied' : label}
    </button>
  );
}

export function ResultView({ outcome, testId }: { outcome: Outcome | null; testId?: string }) {
  if (!outcome) return null;
  const ok = outcome.kind === 'ok';
  const text = ok
    ? formatValue(outcome.value)
    : `${outcome.name}${outcome.code !== undefined ? ` (code ${outcome.code})` : ''}: ${outcome.message}`;
  return (
    <div
      className={`result ${ok ? 'result-ok' : 'result-error'}`}
      data-testid={testId}
      role={ok ? 'status' : 'alert'}
    >
      <div className="result-head">
        <span className="result-label">{ok ? 'Result' : 'Error'}</span>
        <CopyButton text={text} />
      </div>
      <pre>{text}</pre>
    </div>
  );
}
