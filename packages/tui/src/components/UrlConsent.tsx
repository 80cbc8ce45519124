/**
 * URL-mode elicitation: shows who asks, the domain and the address, and asks for consent. `y`
 * accepts (the user opens the URL themselves; the TUI never opens it), `n` declines, Esc
 * cancels. An address that is not http(s) can only be declined or cancelled.
 */

import { useInput } from 'ink';

import type { McpServerElicitationRequestResult } from '@mcprt/protocol';

import { urlConsentLines, urlDomain } from '../model/elicitationView.js';
import { Lines } from './Lines.js';

export interface UrlConsentProps {
  readonly scope: string;
  readonly message: string;
  readonly url: string;
  readonly width: number;
  /** Rows it may take (the terminal's, less what is above it); default: unlimited. */
  readonly maxRows?: number;
  readonly onAnswer: (result: McpServerElicitationRequestResult) => void;
}

export function UrlConsent({ scope, message, url, width, maxRows, onAnswer }: UrlConsentProps) {
  const openable = !('error' in urlDomain(url));
  useInput((input, key) => {
    if (key.escape) onAnswer({ action: 'cancel', content: null });
    else if (input === 'n' || input === 'N') onAnswer({ action: 'decline', content: null });
    else if (openable && (input === 'y' || input === 'Y'))
      onAnswer({ action: 'accept', content: null });
  });
  return <Lines lines={urlConsentLines({ scope, message }, url, width, maxRows)} />;
}
