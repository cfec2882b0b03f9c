#!/usr/bin/env python3
"""Integration tests that drive a real tagd over pipes, in plain Python (standard library only).

Run:  python3 Protocol/examples/testing/test_plain.py        (or: python3 -m pytest this_file)

tagd is found as $TAGD, else `tagd` on PATH, else the checkout's .build/debug/tagd (or
.build/release/tagd) relative to this file. See Protocol/testing.md for the walk-through.
"""

import json
import os
import select
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]  # Protocol/examples/testing/ -> the checkout
TRANSCRIPTS = ROOT / "Protocol" / "transcripts"
TIMEOUT = 10.0  # seconds: an upper bound for one reply, never a measurement


def tagd_path():
    """$TAGD, else tagd on PATH, else the checkout's own build."""
    if os.environ.get("TAGD"):
        return os.environ["TAGD"]
    on_path = shutil.which("tagd")
    if on_path:
        return on_path
    for build in ("debug", "release"):
        candidate = ROOT / ".build" / build / "tagd"
        if os.access(candidate, os.X_OK):
            return str(candidate)
    raise unittest.SkipTest("no tagd: set TAGD, put tagd on PATH or run `swift build`")


class Tagd:
    """One tagd child speaking Content-Length framing (as LSP) over its stdin and stdout."""

    def __init__(self, *flags):
        # --framing pins the framing instead of detecting it; the log goes to a file of its own
        # so stderr stays empty and a failing test can show it.
        self.log = tempfile.NamedTemporaryFile(prefix="tagd-", suffix=".log", delete=False)
        self.process = subprocess.Popen(
            [tagd_path(), "--framing=content-length", "--log=debug", "--log-file=" + self.log.name]
            + list(flags),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self.buffer = b""
        self.next_id = 1
        self.pushed = []  # notifications tagd sent (field/didUpdate), in order

    def send_raw(self, body: bytes):
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def send(self, message: dict):
        self.send_raw(json.dumps(message, ensure_ascii=False).encode())

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def request(self, method, params=None):
        """Sends a request; returns its whole reply (`result` or `error`) as a dict."""
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        self.next_id += 1
        if params is not None:
            message["params"] = params
        self.send(message)
        while True:
            reply = self.read()
            if reply is None:
                raise AssertionError(f"tagd ended before answering {method}")
            if reply.get("id") == message["id"]:
                return reply
            self.pushed.append(reply)

    def result(self, method, params=None):
        reply = self.request(method, params)
        if "error" in reply:
            raise AssertionError(f"{method} failed: {reply['error']}")
        return reply["result"]

    def _fill(self):
        ready, _, _ = select.select([self.process.stdout], [], [], TIMEOUT)
        if not ready:
            raise AssertionError(f"no output from tagd within {TIMEOUT} s")
        chunk = os.read(self.process.stdout.fileno(), 65536)
        self.buffer += chunk
        return bool(chunk)

    def read(self):
        """The next message tagd wrote, parsed; None at end of output."""
        while b"\r\n\r\n" not in self.buffer:
            if not self._fill():
                return None
        header, _, rest = self.buffer.partition(b"\r\n\r\n")
        length = int(header.split(b":", 1)[1])
        while len(rest) < length:
            if not self._fill():
                return None
            header, _, rest = self.buffer.partition(b"\r\n\r\n")
        self.buffer = rest[length:]
        return json.loads(rest[:length])

    def finish(self):
        """Closes stdin; returns (the messages still to come, the exit status)."""
        self.process.stdin.close()
        rest = []
        while (message := self.read()) is not None:
            rest.append(message)
        status = self.process.wait(timeout=TIMEOUT)
        self.process.stdout.close()
        self.log.close()
        os.unlink(self.log.name)
        return rest, status

    def initialize(self):
        # Only documented members: params are strict (an unknown member gets -32602).
        return self.result("initialize", {"processId": os.getpid(), "capabilities": {}})


class FieldTests(unittest.TestCase):
    def setUp(self):
        self.tagd = Tagd()
        self.tagd.initialize()
        self.tagd.notify("initialized", {})

    def tearDown(self):
        if self.tagd.process.poll() is None:
            self.tagd.request("shutdown")
            self.tagd.notify("exit")
            _, status = self.tagd.finish()
            self.assertEqual(status, 0)

    def test_paste_becomes_tags_and_is_announced(self):
        self.tagd.result("field/open", {"field": "f"})
        state = self.tagd.result("field/change", {"field": "f", "text": "red, green,RED, blue"})
        self.assertEqual(state["tags"], ["red", "green"])
        self.assertEqual(state["text"], "blue")
        self.assertEqual(
            state["outcome"]["dropped"], [{"text": "RED", "reason": "duplicate", "duplicateOf": 0}]
        )
        self.assertEqual(state["announcement"], "Added red and green. RED is already a tag, as red.")

    def test_layout_wraps_the_text_field(self):
        self.tagd.result("field/open", {"field": "f", "tags": ["red", "green"]})
        layout = self.tagd.result(
            "field/layout",
            {
                "field": "f",
                "width": 120,
                "chipSizes": [{"width": 40, "height": 24}, {"width": 56, "height": 24}],
                "fieldHeight": 24,
            },
        )
        self.assertEqual(layout["frames"][-1], {"x": 0, "y": 32, "width": 120, "height": 24})
        self.assertEqual(layout["size"], {"width": 120, "height": 56})

    def test_errors_carry_their_codes(self):
        self.assertEqual(self.tagd.request("field/state", {"field": "nope"})["error"]["code"], -32010)
        self.assertEqual(self.tagd.request("field/frobnicate", {})["error"]["code"], -32601)
        self.assertEqual(self.tagd.request("field/open", {})["error"]["code"], -32602)


class LimitTests(unittest.TestCase):
    def test_small_limits_make_the_edges_cheap_to_reach(self):
        tagd = Tagd("--max-tags=2", "--max-sessions=1")
        limits = tagd.initialize()["capabilities"]["limits"]
        self.assertEqual((limits["maxTags"], limits["maxSessions"]), (2, 1))
        state = tagd.result("field/open", {"field": "f", "tags": ["a", "b", "c"]})
        self.assertEqual(state["tags"], ["a", "b"])
        self.assertEqual(state["outcome"]["dropped"], [{"text": "c", "reason": "tooMany", "limit": 2}])
        self.assertEqual(tagd.request("field/open", {"field": "g"})["error"]["code"], -32012)
        _, status = tagd.finish()  # stdin closed without shutdown
        self.assertEqual(status, 1)


def transcript(path):
    """(bodies to send, [(expected message, partial?)], exit status or None, replies per send)
    of a transcript.

    `{{rootUri}}` and `{{root}}` stand for this checkout as a file:// URI and as a path (the
    vault transcripts serve Tests/Fixtures/vault).
    """
    text = path.read_text(encoding="utf-8")
    text = text.replace("{{rootUri}}", ROOT.as_uri()).replace("{{root}}", str(ROOT))
    sends, expected, status, counts = [], [], None, []
    for number, line in enumerate(text.split("\n"), 1):
        if line.startswith("-> "):
            sends.append(line[3:].encode())
            counts.append(0)
        elif line.startswith("<- "):
            expected.append((json.loads(line[3:]), False))
            counts[-1] += 1
        elif line.startswith("<~ "):
            expected.append((json.loads(line[3:]), True))
            counts[-1] += 1
        elif line.startswith("== exit "):
            status = int(line[8:])
        elif line and not line.startswith("#"):
            raise ValueError(f"{path.name}:{number}: not a transcript line")
    return sends, expected, status, counts


def contains(big, small):
    """`<~` lines: objects need at least the given members (recursively); the rest is equal."""
    if isinstance(big, dict) and isinstance(small, dict):
        return all(key in big and contains(big[key], value) for key, value in small.items())
    return big == small


class GoldenTranscriptTests(unittest.TestCase):
    """Protocol/transcripts as golden files: send every `->` body, expect every `<-` message."""

    def test_every_transcript(self):
        paths = sorted(TRANSCRIPTS.glob("*.transcript"))
        self.assertGreater(len(paths), 0, f"no transcripts in {TRANSCRIPTS}")
        for path in paths:
            with self.subTest(transcript=path.name):
                sends, expected, status, counts = transcript(path)
                # A transcript serving a vault is sent stepwise: each body once the replies to
                # the ones before it came (requests wait while the vault is indexed).
                stepwise = "{{root" in path.read_text(encoding="utf-8")
                tagd = Tagd()
                got = []
                for body, count in zip(sends, counts):
                    tagd.send_raw(body)  # byte for byte: some bodies are invalid on purpose
                    for _ in range(count if stepwise else 0):
                        got.append(tagd.read())
                rest, exit_status = tagd.finish()
                got += rest
                self.assertEqual(len(got), len(expected))
                for index, (actual, (want, partial)) in enumerate(zip(got, expected)):
                    if partial:  # e.g. an initialize result, whose method list grows with tagd
                        self.assertTrue(contains(actual, want), f"message {index + 1}: {actual}")
                    else:
                        self.assertEqual(actual, want, f"message {index + 1}")
                if status is not None:
                    self.assertEqual(exit_status, status)


if __name__ == "__main__":
    unittest.main(verbosity=2)
