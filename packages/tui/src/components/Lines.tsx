/**
 * Renders view-model lines. Every line is already fitted to the width by its view-model; the
 * `truncate-end` here is only a guard, so a terminal never wraps a line on its own.
 */

import { Box, Text } from 'ink';

import type { Line, Tone } from '../model/lines.js';

interface Style {
  readonly color?: string;
  readonly bold?: boolean;
  readonly dimColor?: boolean;
}

const STYLES: Record<Tone, Style> = {
  plain: {},
  dim: { dimColor: true },
  bold: { bold: true },
  ok: { color: 'green' },
  error: { color: 'red' },
  warn: { color: 'yellow' },
  accent: { color: 'cyan' },
};

export function Lines({ lines }: { readonly lines: readonly Line[] }) {
  return (
    <Box flexDirection="column">
      {lines.map((l, i) => (
        <Text key={i} wrap="truncate-end" {...STYLES[l.tone]}>
          {l.text === '' ? ' ' : l.text}
        </Text>
      ))}
    </Box>
  );
}
