/** The SDK's own version, sent as the default `clientInfo.version` (pinned to package.json by a test). */
export const SDK_VERSION = '0.1.0';
