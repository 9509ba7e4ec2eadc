"""The MCP stdio server (`app`) and what it is made of. Imports nothing: see `mdsel_claude`."""
