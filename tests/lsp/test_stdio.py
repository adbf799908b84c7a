"""The server over a stdin pipe, as editors start it, when the client writes everything at once
or goes away: it answers what it was asked and ends."""

from __future__ import annotations

import json
import socket
import subprocess
import time

from .session import SERVER_COMMAND

CEILING_SECONDS = 60  # a hung server fails here; never an assertion on speed


def framed(*messages: dict) -> bytes:
    bodies = [json.dumps({"jsonrpc": "2.0", **message}).encode() for message in messages]
    return b"".join(b"Content-Length: %d\r\n\r\n" % len(body) + body for body in bodies)


def messages_in(stream: bytes) -> list[dict]:
    """The complete messages at the start of ``stream``."""
    found = []
    while b"\r\n\r\n" in stream:
        headers, _, rest = stream.partition(b"\r\n\r\n")
        length = next(int(line.split(b":")[1]) for line in headers.split(b"\r\n") if line.startswith(b"Content-Length"))
        if len(rest) < length:
            break
        found.append(json.loads(rest[:length]))
        stream = rest[length:]
    return found


def answered_ids(stdout: bytes) -> list[int]:
    return [message["id"] for message in messages_in(stdout) if "id" in message and "method" not in message]


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


def test_one_socket_for_both_ends_is_served_by_the_blocking_reader(tmp_path):
    """A client that hands the server one socket as stdin and stdout: read in the loop, the socket
    would turn non-blocking under the synchronous writer, and an answer larger than the socket's
    buffer, written while the client is busy, would fail half-way."""
    models = 1500
    text = "import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()\n" + "".join(
        f"m{index} = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])\n"
        f"with strategy.scope():\n    m{index}.compile(optimizer='sgd', loss='mse')\n" for index in range(models))
    uri = (tmp_path / "train.py").as_uri()
    client, server_end = socket.socketpair()
    with client, server_end:
        process = subprocess.Popen(SERVER_COMMAND, stdin=server_end, stdout=server_end, stderr=subprocess.DEVNULL)
        client.sendall(framed(
            {"id": 1, "method": "initialize", "params": {"capabilities": {}}},
            {"method": "initialized", "params": {}},
            {"method": "textDocument/didOpen",
             "params": {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}}}))
        time.sleep(5)  # busy: the diagnostics (far more than a socket buffer) wait to be read
        client.settimeout(CEILING_SECONDS)
        received, published = b"", []
        while not published:
            chunk = client.recv(1 << 20)
            assert chunk, "the server closed the connection before publishing"
            received += chunk
            published = [message for message in messages_in(received) if message.get("method") == "textDocument/publishDiagnostics"]
        assert len(published[0]["params"]["diagnostics"]) == models
        client.sendall(framed({"id": 2, "method": "shutdown"}, {"method": "exit"}))
        assert process.wait(timeout=CEILING_SECONDS) == 0

