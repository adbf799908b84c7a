"""The tfscope language server (pygls 2): ``start_server`` serves over stdio or TCP."""
