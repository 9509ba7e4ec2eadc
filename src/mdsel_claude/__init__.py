"""mdsel-claude: the MCP server, Claude Code hook and setup around the mdsel engine.

Deliberately empty: the hook imports this package on every Read, so it must cost nothing.
"""
