#!/usr/bin/python3
"""The smallest Python app with a tag entry, through GObject Introspection (Tagd-1.0).

From a build tree: GI_TYPELIB_PATH=_build LD_LIBRARY_PATH=_build /usr/bin/python3 examples/entry.py
It prints the tags each time they change.
"""
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Tagd", "1.0")
from gi.repository import Gtk, Tagd  # noqa: E402


def on_tags_changed(entry):
    print("tags:", ", ".join(entry.props.tags), flush=True)


def on_dropped(entry, text, reason, index):
    # reason is a Tagd.DropReason; entry.props.announcement already holds the sentence saying so
    print("dropped:", text, reason.value_nick, index, "|", entry.props.announcement, flush=True)


def on_activate(app):
    window = Gtk.ApplicationWindow(application=app, title="Python tags")
    entry = Tagd.Entry(prompt="Add a tag", tags=["python"], max_tags=5)
    entry.connect("tags-changed", on_tags_changed)
    entry.connect("tag-dropped", on_dropped)
    entry.add_tags(["gtk"])  # as a suggestion button would
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, margin_top=18, margin_bottom=18,
                  margin_start=18, margin_end=18)
    box.append(entry)
    window.set_child(box)
    window.set_default_size(420, -1)
    window.present()
    entry.grab_focus()


app = Gtk.Application(application_id="org.tagd.PythonExample")
app.connect("activate", on_activate)
sys.exit(app.run(sys.argv[:1]))
