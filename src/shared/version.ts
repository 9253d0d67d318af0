/** The app's version, shown in diagnostics and the MCP server info. Keep in step with package.json. */
export const RAGDESK_VERSION = '0.1.0';
