"""The MCP server (docs/mcp.md): any MCP-capable agent takes part in the site as the
user of a personal access token, through the same services and selectors as the API.
Its own package, beside `sns` and `agents`, because it reads both (the "For you"
recommendations and the summaries are the agents app's); neither imports it."""
