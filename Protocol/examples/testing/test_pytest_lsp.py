"""Integration tests of tagd with an off-the-shelf LSP test client: pytest-lsp (PyPI).

Run:  python3 -m venv .build/venv && .build/venv/bin/pip install pytest-lsp
      .build/venv/bin/python -m pytest Protocol/examples/testing/test_pytest_lsp.py

pytest-lsp starts tagd as a language server over stdio, does the LSP lifecycle, and sends tagd's
own methods as custom requests through the client's protocol (`send_request_async`). tagd is
found as $TAGD, else `tagd` on PATH, else the checkout's .build/debug/tagd. See
Protocol/testing.md.
"""

import os
import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = Path(__file__).resolve().parents[3]


def tagd_path():
    if os.environ.get("TAGD"):
        return os.environ["TAGD"]
    return shutil.which("tagd") or str(ROOT / ".build" / "debug" / "tagd")


# Small limits make the limit paths cheap to reach and bound what a broken test can cost;
# --log-file keeps diagnostics out of the test output (pytest-lsp echoes the server's stderr).
LOG = Path(os.environ.get("TMPDIR", "/tmp")) / f"tagd-pytest-lsp-{os.getpid()}.log"


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=[
            tagd_path(),
            "--stdio",
            "--framing=content-length",
            "--max-tags=3",
            "--log=info",
            f"--log-file={LOG}",
        ]
    ),
)
async def client(lsp_client: LanguageClient):
    # Only documented members are sent (processId and an empty capabilities object): tagd's
    # params are strict, an unknown member gets -32602.
    result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities())
    )
    assert result.server_info is not None and result.server_info.name == "tagd"
    yield
    await lsp_client.shutdown_session()


async def call(client: LanguageClient, method: str, params: dict):
    """A tagd method as a custom LSP request.

    pygls hands back a custom method's result as nested named tuples: members are attributes
    (`state.tags`, `state.outcome.dropped[0].reason`), arrays are lists.
    """
    return await client.protocol.send_request_async(method, params)


@pytest.mark.asyncio
async def test_typing_a_separator_makes_a_tag(client: LanguageClient):
    await call(client, "field/open", {"field": "f"})
    state = await call(client, "field/change", {"field": "f", "text": "red, green,RED, blue"})
    assert state.tags == ["red", "green"]
    assert state.text == "blue"
    assert state.announcement == "Added red and green. RED is already a tag, as red."
    state = await call(client, "field/submit", {"field": "f"})
    assert state.tags == ["red", "green", "blue"] and state.text == ""


@pytest.mark.asyncio
async def test_the_tag_limit_from_the_command_line(client: LanguageClient):
    state = await call(client, "field/open", {"field": "f", "tags": ["a", "b", "c", "d"]})
    assert state.tags == ["a", "b", "c"]
    [dropped] = state.outcome.dropped
    assert (dropped.text, dropped.reason, dropped.limit) == ("d", "tooMany", 3)


@pytest.mark.asyncio
async def test_cloud_toggle_and_merge_groups(client: LanguageClient):
    await call(client, "cloud/open", {"cloud": "c", "tags": [{"title": "swift"}, {"title": "rust"}]})
    state = await call(client, "cloud/toggle", {"cloud": "c", "title": "swift"})
    assert state.selection == ["swift"]
    layout = await call(
        client,
        "cloud/layout",
        {
            "cloud": "c",
            "width": 100,
            "sizes": [{"width": 50, "height": 20}, {"width": 40, "height": 20}],
            "spacing": 3,
        },
    )
    assert layout.groups == [[0, 1]]
    assert [(frame.x, frame.width) for frame in layout.frames] == [(0, 50), (53, 40)]


@pytest.mark.asyncio
async def test_errors_are_json_rpc_exceptions(client: LanguageClient):
    with pytest.raises(JsonRpcException) as unknown:
        await call(client, "field/state", {"field": "nope"})
    assert unknown.value.code == -32010
    with pytest.raises(JsonRpcException) as invalid:
        await call(client, "field/removeTag", {"field": "nope"})
    assert invalid.value.code in (-32602, -32010)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
