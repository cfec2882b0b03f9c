#!/usr/bin/python3
"""Holds TEXT on the X clipboard (as another application would) until terminated, so the
tests can paste it into the demo with a real Ctrl+V."""
import sys

import gi

gi.require_version("Gdk", "4.0")
gi.require_version("Gtk", "4.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

Gtk.init()
clipboard = Gdk.Display.get_default().get_clipboard()
data = GLib.Bytes.new(sys.argv[1].encode())
clipboard.set_content(Gdk.ContentProvider.new_for_bytes("text/plain;charset=utf-8", data))


def ready():
    print("ready", flush=True)
    return False


GLib.idle_add(ready)
GLib.MainLoop().run()
