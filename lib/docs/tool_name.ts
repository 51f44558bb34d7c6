/**
 * The names the agent knows the built-in docs search by. The MCP server `install --mcp` registers is
 * "docsearch"; Claude Code names a server's tools `mcp__<server>__<tool>`.
 */
export const SERVER_NAME = "docsearch";

export const BUILT_IN_TOOL = `mcp__${SERVER_NAME}__search`;
