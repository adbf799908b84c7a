"""One module per LSP feature; each takes a ``Session`` (never the server)."""
