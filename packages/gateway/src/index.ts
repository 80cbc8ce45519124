/**
 * Public API of `@mcprt/gateway`: `mcprt serve` as a library — one runtime session behind one MCP
 * server, served over stdio or streamable HTTP on loopback, in both protocol eras.
 */

export { Gateway } from './gateway.js';
export type { GatewayOptions } from './gateway.js';
export { serveGatewayStdio } from './stdio.js';
export type { GatewayStdioHandle } from './stdio.js';
export { listenGatewayHttp, GATEWAY_HTTP_PATH } from './http/listener.js';
export type { GatewayHttpOptions, GatewayHttpListener } from './http/listener.js';
export { GATEWAY_VERSION, GATEWAY_EXPERIMENTAL } from './serverFactory.js';
export { wrapResourceUri, unwrapResourceUri, STATUS_RESOURCE_URI } from './resourceUri.js';
export { gatewayName, REGISTRATION_META_KEY } from './naming.js';
export type { RegistrationMeta } from './naming.js';
export { defaultLoginCommand } from './status.js';
export type { LoginCommand, LogLevel } from './status.js';
export { GRANT_EVERYTHING, grantFor, grantKey, policyMatches } from './policy.js';
export type { PolicyDecision, PolicyGrant, PolicyRefusal } from './policy.js';
export { LOCAL_CALLER, TOKEN_CALLER, callerLabel } from './caller.js';
export type { Caller } from './caller.js';
export type { AuthOutcome, HttpAuthenticator, PublicDocument } from './auth/authenticator.js';
export {
  createOAuthAuthenticator,
  OAuthConfigError,
  OAuthResourceServer,
} from './auth/oauthResourceServer.js';
export type { OAuthAuthenticatorOptions } from './auth/oauthResourceServer.js';
export type { KeySetTiming } from './auth/jwks.js';
export { IssuerDiscoveryError } from './auth/issuerDiscovery.js';
export { TokenRejectedError } from './auth/tokenVerifier.js';
export type { TokenRejectionCode } from './auth/tokenVerifier.js';
