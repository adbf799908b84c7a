"""``python -m tfscope.lsp [--tcp HOST:PORT] [--log-file PATH]``: the server without the CLI."""

import argparse

from tfscope.lsp.server import start_server

parser = argparse.ArgumentParser(prog="python -m tfscope.lsp", description="tfscope language server")
parser.add_argument("--tcp", metavar="HOST:PORT", help="serve over TCP instead of stdio")
parser.add_argument("--log-file", metavar="PATH", help="also write the server log to this file")
arguments = parser.parse_args()
start_server(tcp=arguments.tcp, log_file=arguments.log_file)
