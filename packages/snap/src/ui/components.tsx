import { Box, Divider, Heading, Row, Text, type JSXElement } from '@metamask/snaps-sdk/jsx';

import { siteName } from './site';

/**
 * Only for labels and headings that merely name something shown in full elsewhere. A value the
 * user approves is never cut: dialogs scroll, and `confirm` refuses content too large to show.
 */
export function shorten(text: string, max = 400): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

export const Field = ({ label, value }: { label: string; value: string }): JSXElement => (
  <Row label={label}>
    <Text>{value}</Text>
  </Row>
);

export const Title = ({ title, subtitle }: { title: string; subtitle?: string }): JSXElement => (
  <Box>
    <Heading>{title}</Heading>
    {subtitle ? <Text>{subtitle}</Text> : null}
    <Divider />
  </Box>
);

/** Every row: a dialog never hides part of what is approved. */
export const Fields = ({ rows }: { rows: [string, string][] }): JSXElement => (
  <Box>
    {rows.map(([label, value]) => (
      <Field label={label} value={value} />
    ))}
  </Box>
);

/** The requesting site above a dialog's content (dialogs.ts adds it to every dialog). */
export const SiteHeader = ({
  origin,
  children,
}: {
  origin: string;
  children: JSXElement;
}): JSXElement => (
  <Box>
    <Row label="Requested by">
      <Text>{siteName(origin)}</Text>
    </Row>
    {children}
  </Box>
);
