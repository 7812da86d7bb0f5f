import { Box, Divider, Heading, Row, Text, type JSXElement } from '@metamask/snaps-sdk/jsx';

/** Dialogs show long lists cut to this many items, with a count of the rest. */
export const MAX_LISTED = 24;
const MAX_TEXT = 400;

export function shorten(text: string, max = MAX_TEXT): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

export const Field = ({ label, value }: { label: string; value: string }): JSXElement => (
  <Row label={label}>
    <Text>{shorten(value)}</Text>
  </Row>
);

export const Title = ({ title, subtitle }: { title: string; subtitle?: string }): JSXElement => (
  <Box>
    <Heading>{title}</Heading>
    {subtitle ? <Text>{subtitle}</Text> : null}
    <Divider />
  </Box>
);

/** A JSON value as label/value rows, nested objects flattened with dotted labels. */
export function flattenForDisplay(value: unknown, prefix = ''): [string, string][] {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value)
      ? value.map((item, index) => [String(index), item] as const)
      : Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) {
      return [[prefix || '(empty)', Array.isArray(value) ? '[]' : '{}']];
    }
    return entries.flatMap(([key, item]) =>
      flattenForDisplay(item, prefix ? `${prefix}.${key}` : key),
    );
  }
  return [[prefix || 'value', String(value)]];
}

export const Fields = ({ rows }: { rows: [string, string][] }): JSXElement => {
  const shown = rows.slice(0, MAX_LISTED);
  return (
    <Box>
      {shown.map(([label, value]) => (
        <Field label={label} value={value} />
      ))}
      {rows.length > shown.length ? (
        <Text>{`... and ${rows.length - shown.length} more`}</Text>
      ) : null}
    </Box>
  );
};
