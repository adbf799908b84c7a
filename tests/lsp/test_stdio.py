"""The server over a stdin pipe, as editors start it, when the client writes everything at once
or goes away: it answers what it was asked and ends."""

from __future__ import annotations

import json
import subprocess

from .session import SERVER_COMMAND

CEILING_SECONDS = 60  # a hung server fails here; never an assertion on speed


def framed(*messages: dict) -> bytes:
    bodies = [json.dumps({"jsonrpc": "2.0", **message}).encode() for message in messages]
    return b"".join(b"Content-Length: %d\r\n\r\n" % len(body) + body for body in bodies)


def answered_ids(stdout: bytes) -> list[int]:
    ids = []
    while stdout:
        headers, _, rest = stdout.partition(b"\r\n\r\n")
        length = next(int(line.split(b":")[1]) for line in headers.split(b"\r\n") if line.startswith(b"Content-Length"))
        message = json.loads(rest[:length])
        if "id" in message and "method" not in message:
            ids.append(message["id"])
        stdout = rest[length:]
    return ids


def test_exit_written_right_behind_shutdown_ends_the_server_after_both_answers():
    done = subprocess.run(
        SERVER_COMMAND,
        input=framed(
            {"id": 1, "method": "initialize", "params": {"capabilities": {}}},
            {"method": "initialized", "params": {}},
            {"id": 2, "method": "shutdown"},
            {"method": "exit"},
        ),
        capture_output=True,
        timeout=CEILING_SECONDS,
    )
    assert done.returncode == 0
    assert answered_ids(done.stdout) == [1, 2]
    assert done.stderr == b""  # nothing was sent after `exit` closed the output


def test_a_client_gone_in_the_middle_of_a_message_ends_the_server():
    done = subprocess.run(SERVER_COMMAND, input=b'Content-Length: 100\r\n\r\n{"jsonrpc"', capture_output=True,
                          timeout=CEILING_SECONDS)
    assert done.returncode == 0
