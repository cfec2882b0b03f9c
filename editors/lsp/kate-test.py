#!/usr/bin/python3
"""Kate 22.12 with nothing but kate-settings.json as its LSP client settings, driven as a user
would: real X keystrokes and clicks (xdotool) in a private Xvfb, and what the user sees read back
through AT-SPI (Kate is a Qt 5 application: its menus, the KTextEditor view's text, the completion
popup, the hover tooltip, the Rename dialog and the Diagnostics tool view are all in the tree).
Run by kate-test inside its own D-Bus session (dbus-run-session starts the AT-SPI bus too).

Usage: kate-test.py TMPDIR TAGD REPO LAST [SHOTS_DIR]
Prints "ok - ..." / "FAIL - ..." lines; exits 1 on a failure. LAST is 1 on kate-test's last
session: should Kate not show up in the AT-SPI tree there either (a D-Bus session whose AT-SPI
bus Kate cannot reach), the checks that need no AT-SPI still run and the others are reported as
skipped, with what Kate printed.
"""
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, Gio, GLib  # noqa: E402

WAIT = 20.0  # the longest anything may take; an upper bound, never a time that must be met
SHOWING = Atspi.StateType.SHOWING


class Failure(Exception):
    pass


class NotInTree(Failure):
    """Kate never showed up in this D-Bus session's AT-SPI tree (KATE: the last start, still
    running, when the caller asked to keep it)."""

    def __init__(self, message, kate=None):
        super().__init__(message)
        self.kate = kate


NOT_IN_TREE = 75  # the exit status that asks kate-test for a fresh session


def wait_for(predicate, what, timeout=WAIT):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = predicate()
            if last:
                return last
        except (Failure, GLib.GError, IndexError, ValueError) as e:
            last = "%s: %s" % (type(e).__name__, e)
        time.sleep(0.1)
    # WHAT may be a function: then it names the state at the end of the wait.
    raise Failure("timed out waiting for %s (last: %r)" % (what() if callable(what) else what, last))


class Display:
    """A private Xvfb on a display number no X socket uses (its number told by -displayfd)."""

    def __init__(self):
        with open("/proc/net/unix") as f:
            taken = f.read()
        while True:
            n = random.randint(200, 4000)
            if ("/tmp/.X11-unix/X%d\n" % n) in taken or os.path.exists("/tmp/.X%d-lock" % n):
                continue
            r, w = os.pipe()
            self.proc = subprocess.Popen(["Xvfb", ":%d" % n, "-displayfd", str(w), "-screen", "0", "1280x900x24",
                                          "-nolisten", "tcp"], pass_fds=(w,),
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            os.close(w)
            got = b""
            while not got.endswith(b"\n"):
                c = os.read(r, 1)
                if not c:
                    break
                got += c
            os.close(r)
            if got.strip() == str(n).encode():
                self.name = ":%d" % n
                return
            self.proc.wait()

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


class Kate:
    def __init__(self, tmp, env, files, keep=False):
        self.tmp, self.env = tmp, env
        self.vault = os.path.join(tmp, "vault")
        # Kate's first start has D-Bus start kglobalaccel and the activity manager, and while
        # they come up its connection to the AT-SPI bus often fails ("Error in contacting
        # registry: Not connected to D-Bus server": 7 starts in 10 never appeared in the tree).
        # Started first, as in a desktop session, they are there before Kate (10 in 10).
        bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        for name in ("org.kde.kglobalaccel", "org.kde.ActivityManager"):
            bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "StartServiceByName",
                          GLib.Variant("(su)", (name, 0)), None, Gio.DBusCallFlags.NONE, -1, None)
        # Should Kate still not show up in the registry, start it again, as a user would (and
        # kate-test starts a new session when that fails too: some sessions never see it).
        for attempt in range(2):
            self.proc = subprocess.Popen(["kate", "-n"] + files, cwd=self.vault, env=env,
                                         stdout=open(os.path.join(tmp, "kate.log"), "a"), stderr=subprocess.STDOUT)
            try:
                # Kate (Qt 5) finds the AT-SPI bus in two ways at start when the bus is already
                # up: the display's AT_SPI_BUS property, connected at once, and the session bus's
                # org.a11y.Bus, asked later. The two raced: "Error in contacting registry: Not
                # connected to D-Bus server", and on a quiet machine Kate never reached the tree
                # (1 run in 3 here, every session on CI's machine). With no bus until Kate's window
                # is up, Qt takes only the second way, when this process starts the bus (4 in 4,
                # no such error). A second start in the same session finds the bus up.
                if attempt == 0:
                    wait_for(self._find_window, "Kate's X window")
                self.app = wait_for(self._find_app, "Kate in the AT-SPI tree", 15)
                break
            except Failure:
                why = self._why_not_in_tree()  # while Kate still runs
                if keep and attempt == 1:
                    self._place_window()
                    raise NotInTree("Kate never appeared in the AT-SPI tree (2 starts)\n" + why, self)
                self.kill()
        else:
            raise NotInTree("Kate never appeared in the AT-SPI tree (2 starts)\n" + why)
        self._place_window()

    def _place_window(self):
        self.window = wait_for(self._find_window, "Kate's X window")
        # No window manager under Xvfb: give the window a size that shows the tool views.
        self.xdotool("windowsize", "--sync", self.window, "1200", "850")
        self.xdotool("windowmove", "--sync", self.window, "0", "0")

    def _find_app(self):
        while GLib.MainContext.default().iteration(False):
            pass
        desktop = Atspi.get_desktop(0)
        for i in range(desktop.get_child_count()):
            app = desktop.get_child_at_index(i)
            if app is not None and app.get_process_id() == self.proc.pid:
                return app
        return None

    def _why_not_in_tree(self):
        """What a reader of a failed run needs: who is in the tree, and what Kate printed."""
        desktop = Atspi.get_desktop(0)
        apps = [desktop.get_child_at_index(i) for i in range(desktop.get_child_count())]
        names = ["%s (pid %s)" % (a.get_name(), a.get_process_id()) for a in apps if a is not None]
        bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        owner = bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                              "NameHasOwner", GLib.Variant("(s)", ("org.a11y.Bus",)), GLib.VariantType("(b)"),
                              Gio.DBusCallFlags.NONE, -1, None).unpack()[0]
        with open(os.path.join(self.tmp, "kate.log"), errors="replace") as f:
            log = [line for line in f.read().splitlines() if "udisks2" not in line and "Not connected" not in line][-25:]
        return "the tree's applications: %s; org.a11y.Bus owned: %s\nkate.log (last lines):\n  %s" % (
            names or "none", owner, "\n  ".join(log))

    def _find_window(self):
        out = self.xdotool_out("search", "--onlyvisible", "--pid", str(self.proc.pid)).split()
        return out[0] if out else None

    def children(self):
        """Kate's child processes, as their command lines."""
        out = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open("/proc/%s/stat" % entry) as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                if ppid == self.proc.pid:
                    with open("/proc/%s/cmdline" % entry, "rb") as f:
                        out.append((int(entry), f.read().split(b"\0")[0].decode()))
            except (OSError, IndexError, ValueError):
                pass
        return out

    def kill(self):
        kids = self.children()
        self.proc.kill()
        self.proc.wait()
        for pid, _ in kids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    # AT-SPI

    def nodes(self, role=None, name=None, root=None, showing=False):
        found = []

        def walk(node, depth=0):
            try:
                r, n = node.get_role_name(), node.get_name()
            except GLib.GError:
                return
            if (role is None or r == role) and (name is None or n == name) \
                    and (not showing or node.get_state_set().contains(SHOWING)):
                found.append(node)
            if depth > 40:
                return
            for i in range(node.get_child_count()):
                child = node.get_child_at_index(i)
                if child is not None:
                    walk(child, depth + 1)

        self.app.clear_cache()
        walk(root or self.app)
        return found

    def popups(self, showing=True):
        """The application's top-level windows other than the main one (completion list, hover
        tooltip, menus, dialogs)."""
        self.app.clear_cache()
        out = []
        for i in range(1, self.app.get_child_count()):
            c = self.app.get_child_at_index(i)
            if c is not None and (not showing or c.get_state_set().contains(SHOWING)):
                out.append(c)
        return out

    @staticmethod
    def text(node):
        return Atspi.Text.get_text(node, 0, Atspi.Text.get_character_count(node))

    def editor(self, name):
        """The text view of the note whose tab is NAME (made the current one)."""
        tab = wait_for(lambda: self.nodes("page tab", name), "the tab of %s" % name)[0]
        self.click(tab)
        return wait_for(lambda: self.nodes("text", name, showing=True), "the text of %s" % name)[0]

    def caret_at(self, view, needle, delta=1):
        """A click in the text (X focus back in Kate's view), then the caret inside NEEDLE."""
        self.click(view)
        offset = self.text(view).index(needle) + delta
        Atspi.Text.set_caret_offset(view, offset)
        wait_for(lambda: Atspi.Text.get_caret_offset(view) == offset, "the caret in %r" % needle)

    def mouse_on(self, view, needle, delta=1):
        """The mouse resting on NEEDLE's character DELTA. Kate 22.12 reports a character's x
        through AT-SPI shifted right by the width of the border left of the text (line numbers
        and marks): that width is the text area's x less its view's."""
        offset = self.text(view).index(needle) + delta
        r = Atspi.Text.get_character_extents(view, offset, Atspi.CoordType.SCREEN)
        border = view.get_extents(Atspi.CoordType.SCREEN).x - view.get_parent().get_extents(Atspi.CoordType.SCREEN).x
        x, y = r.x - border + max(r.width, 2) // 2, r.y + 8
        self.xdotool("mousemove", "--sync", str(x - 2), str(y))
        self.xdotool("mousemove", "--sync", str(x), str(y))

    def menu(self, top, item):
        """TOP's menu, then ITEM in it: clicks, as a user picks from the menu bar."""
        self.click(self.nodes("menu item", top)[0])
        entry = wait_for(lambda: self.nodes("menu item", item, showing=True), "%s → %s" % (top, item))[0]
        self.click(entry)

    def click(self, node):
        e = node.get_extents(Atspi.CoordType.SCREEN)
        self.xdotool("mousemove", "--sync", str(e.x + e.width // 2), str(e.y + e.height // 2))
        self.xdotool("click", "1")

    # input

    def xdotool(self, *args):
        subprocess.run(["xdotool"] + list(args), env=self.env, check=True, capture_output=True)

    def xdotool_out(self, *args):
        return subprocess.run(["xdotool"] + list(args), env=self.env, capture_output=True, text=True).stdout

    def key(self, *keys):
        self.xdotool("key", "--delay", "30", *keys)

    def type(self, text):
        self.xdotool("type", "--delay", "30", "--", text)

    def shot(self, path):
        subprocess.run(["import", "-window", "root", "-crop", "1200x850+0+0", path], env=self.env,
                       capture_output=True)


def diagnostics(kate):
    """The Diagnostics tool view as its rows: [(note path, [messages])]."""
    rows = []
    for tab in kate.nodes("page tab list", "Diagnostics"):
        for tree in kate.nodes("tree", root=tab.get_parent()):
            for cell in kate.nodes("table cell", root=tree):
                name = cell.get_name()
                if name.startswith("/"):
                    rows.append((name, []))
                elif name and rows:
                    rows[-1][1].append(name)
    return rows


def diagnostic_for(kate, note, pattern):
    for path, messages in diagnostics(kate):
        if path.endswith("/" + note):
            hits = [m for m in messages if re.search(pattern, m)]
            if hits:
                return hits[0]
    return None


def completion(kate):
    """The completion popup's entries, as the user reads them."""
    out = []
    for window in kate.popups():
        for tree in kate.nodes("tree", root=window):
            out += [c.get_name() for c in kate.nodes("table cell", root=tree) if c.get_name()]
    return out


def counted_order(entries):
    """work [6 notes] before home [3 notes]?"""
    w = [i for i, e in enumerate(entries) if e == "work [6 notes]"]
    h = [i for i, e in enumerate(entries) if e == "home [3 notes]"]
    return w and h and w[0] < h[0]


def notes_text(vault):
    out = {}
    for d, _, files in os.walk(vault):
        for f in files:
            if f.endswith((".md", ".org")):
                p = os.path.join(d, f)
                with open(p, encoding="utf-8") as fh:
                    out[os.path.relpath(p, vault)] = fh.read()
    return out


def red_pixels(kate):
    """The red pixels (diagnostic underlines) in Kate's text area, counted in a screenshot."""
    out = subprocess.run(["import", "-window", "root", "-crop", "900x600+40+80", "-depth", "8", "txt:-"], env=kate.env,
                         capture_output=True, text=True).stdout
    n = 0
    for line in out.splitlines()[1:]:
        m = re.search(r"\((\d+),(\d+),(\d+)", line)
        if m:
            r, g, b = (int(x) for x in m.groups())
            n += r > g + 60 and r > b + 60
    return n


def without_atspi(kate, check, results):
    """What can be seen of Kate without its AT-SPI tree: tagd among its children, and the Org
    note's tag-variant diagnostic underlined in red on the screen."""
    check("opening an Org note starts tagd",
          lambda: wait_for(lambda: [c for c in kate.children() if c[1].endswith("/tagd")],
                           lambda: "tagd among Kate's children (%r)" % kate.children()) and None)
    check("the Org note's tag-variant diagnostic is underlined on screen",
          lambda: "%d red pixels" % wait_for(lambda: red_pixels(kate) > 10 and red_pixels(kate),
                                             "red underlines in the text"))
    return 0 if results and all(results) else 1


def main():
    tmp, tagd, repo, last = sys.argv[1:5]
    shots = sys.argv[5] if len(sys.argv) > 5 else ""
    here = os.path.join(repo, "editors", "lsp")
    home = os.path.join(tmp, "home")
    os.makedirs(os.path.join(home, ".config", "kate", "lspclient"))
    os.makedirs(os.path.join(tmp, "bin"))
    os.symlink(os.path.abspath(tagd), os.path.join(tmp, "bin", "tagd"))
    shutil.copy(os.path.join(here, "kate-settings.json"), os.path.join(home, ".config", "kate", "lspclient", "settings.json"))
    # Kate asks before it starts a server it has not run; this is the user's stored "Yes".
    with open(os.path.join(home, ".config", "katerc"), "w") as f:
        f.write("[General]\nShow welcome view for new window=false\n\n[Kate Plugins]\nlspclientplugin=true\n\n"
                "[lspclient]\nAllowedServerCommandLines=%s\n" % os.path.join(tmp, "bin", "tagd"))
    vault = os.path.join(tmp, "vault")
    original = os.path.join(repo, "Protocol", "examples", "vault")
    shutil.copytree(original, vault)
    with open(os.path.join(vault, "new.md"), "w") as f:
        f.write("---\ntags: []\n---\nA new note.\n")

    display = Display()
    env = dict(os.environ)
    env.update({"DISPLAY": display.name, "HOME": home, "XDG_CONFIG_HOME": os.path.join(home, ".config"),
                "PATH": os.path.join(tmp, "bin") + ":" + os.environ["PATH"], "QT_QPA_PLATFORM": "xcb",
                "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1", "QT_ACCESSIBILITY": "1",
                "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
    for name in ("WAYLAND_DISPLAY", "AT_SPI_BUS_ADDRESS"):
        env.pop(name, None)
        os.environ.pop(name, None)
    # This process finds the AT-SPI bus as Kate (Qt 5) does: through the AT_SPI_BUS property of
    # the display's root window, which the bus launcher sets on the display it was given below.
    os.environ["DISPLAY"] = display.name
    # What D-Bus starts on demand (kglobalaccel, the activity manager) needs the display too.
    Gio.bus_get_sync(Gio.BusType.SESSION, None).call_sync(
        "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "UpdateActivationEnvironment",
        GLib.Variant("(a{ss})", ({"DISPLAY": display.name, "QT_QPA_PLATFORM": "xcb"},)), None,
        Gio.DBusCallFlags.NONE, -1, None)
    results = []
    kate = None

    def check(name, fn):
        try:
            seen = fn()
            results.append(True)
            print("ok - kate: " + name, flush=True)
            if seen:
                print("    " + seen, flush=True)
        except (Failure, GLib.GError, IndexError, ValueError, subprocess.SubprocessError) as e:
            results.append(False)
            print("FAIL - kate: %s\n    %s" % (name, str(e).replace("\n", "\n    ")), flush=True)
            if shots:
                kate and kate.shot(os.path.join(shots, "kate-failed-%d.png" % len(results)))

    try:
        # An Org note alone: Kate starts tagd for it and lists its diagnostic.
        try:
            kate = Kate(tmp, env, ["reading/papers.org"], keep=last == "1")
        except NotInTree as e:
            if not e.kate:
                raise
            kate = e.kate
            print("SKIP - kate: the checks read through AT-SPI: %s" % str(e).replace("\n", "\n    "), flush=True)
            return without_atspi(kate, check, results)

        def org_starts_tagd():
            wait_for(lambda: [c for c in kate.children() if c[1].endswith("/tagd")],
                     lambda: "tagd among Kate's children (%r)" % kate.children())
        check("opening an Org note starts tagd", org_starts_tagd)

        def org_diagnostic():
            kate.menu("LSP Client", "Switch to Diagnostics Tab")
            wait_for(lambda: diagnostic_for(kate, "reading/papers.org", r"\(tag-variant\) `Work` is spelled `work`"),
                     lambda: "the tag-variant diagnostic of papers.org in the Diagnostics view (%r)" % diagnostics(kate))
        check("the Diagnostics view lists the Org note's tag-variant diagnostic", org_diagnostic)

        # The Markdown notes, opened from the command line into the running Kate.
        subprocess.run(["kate", "journal/2026-12-01.md", "ideas.md", "new.md"], cwd=vault, env=env,
                       capture_output=True, timeout=60)
        wait_for(lambda: kate.nodes("page tab", "new.md"), "the three Markdown notes open")

        def md_diagnostic():
            kate.menu("LSP Client", "Switch to Diagnostics Tab")
            got = wait_for(lambda: diagnostic_for(kate, "journal/2026-12-01.md",
                                                  r"^\[tagd\] \(tag-variant\) `Work` is spelled `work` in the vault \(6 notes\)$"),
                           lambda: "the tag-variant diagnostic of journal/2026-12-01.md (%r)" % diagnostics(kate))
            return got
        check("the Diagnostics view lists the tag-variant diagnostic of a Markdown note", md_diagnostic)
        if shots:
            kate.editor("2026-12-01.md")
            time.sleep(0.5)  # a screenshot, not an assertion: the tab switch is drawn
            kate.shot(os.path.join(shots, "kate-diagnostic.png"))

        # Completion with Ctrl+Space inside the YAML flow list.
        view = kate.editor("new.md")

        def yaml_completion():
            kate.caret_at(view, "[]")
            kate.key("ctrl+space")
            got = wait_for(lambda: counted_order(completion(kate)) and completion(kate),
                           lambda: "work [6 notes] before home [3 notes] in the completion list (%r)" % completion(kate))
            seen = ", ".join(got[:4]) + ", ..."
            if shots:
                kate.shot(os.path.join(shots, "kate-completion.png"))
            kate.key("Return")
            wait_for(lambda: "tags: [work]\n" in kate.text(view), lambda: "work inserted in the list (%r)" % kate.text(view))
            # Taken back, so that the counts below are the vault's own.
            kate.key("ctrl+z")
            wait_for(lambda: "tags: []\n" in kate.text(view), lambda: "the insertion undone (%r)" % kate.text(view))
            return seen
        check("Ctrl+Space in the YAML tags list lists the vault's tags, most used first, with N notes",
              yaml_completion)
        kate.key("Escape")

        def hash_completion():
            kate.caret_at(view, "A new note.", len("A new note."))
            kate.type(" #")
            wait_for(lambda: counted_order(completion(kate)), lambda: "the list after # (%r)" % completion(kate))
            kate.key("Escape")
            kate.key("BackSpace", "BackSpace")
            wait_for(lambda: kate.text(view).endswith("A new note.\n"), "the # taken back")
        check("typing # in the note body lists the vault's tags with N notes", hash_completion)

        # Hover: the mouse resting on `work` in ideas.md; on `Work`, which has a diagnostic, Kate
        # shows that instead; Symbol Info (the hover request at the caret) on `Work`.
        def tooltip():
            for window in kate.popups(showing=False):
                for label in kate.nodes("label", root=window):
                    try:
                        t = kate.text(label)
                    except GLib.GError:
                        continue
                    if "notes" in t:
                        return t
            return None

        def hovered(got):
            if not re.search(r"work · 6 notes\s+Also spelled: Work \(2 notes\), WORK \(1 note\)", got):
                raise Failure("the hover reads %r" % got)
            return got.replace("\n", " / ")

        def mouse_away():
            kate.xdotool("mousemove", "--sync", "1000", "700")
            wait_for(lambda: not tooltip() and not kate.nodes("tool tip"), "the tooltip gone with the mouse")

        view = kate.editor("ideas.md")

        def mouse_hover():
            kate.mouse_on(view, "work,", 1)
            return hovered(wait_for(tooltip, "the hover tooltip with the count"))
        check("the mouse resting on work shows work · 6 notes and the other spellings", mouse_hover)
        mouse_away()
        view = kate.editor("2026-12-01.md")

        def mouse_diagnostic():
            kate.mouse_on(view, '"Work"', 2)
            return wait_for(lambda: [t.get_name() for t in kate.nodes("tool tip")
                                     if "(tag-variant) `Work` is spelled `work` in the vault (6 notes)" in t.get_name()],
                            lambda: "the diagnostic's tooltip (%r)" % [t.get_name() for t in kate.nodes("tool tip")])[0]
        check("the mouse resting on Work shows its tag-variant diagnostic", mouse_diagnostic)
        mouse_away()

        def symbol_info():
            kate.caret_at(view, '"Work"', 2)
            kate.menu("LSP Client", "Symbol Info")
            return hovered(wait_for(tooltip, "the hover tooltip with the count"))
        check("Symbol Info (LSP Client menu) on Work shows work · 6 notes and the other spellings", symbol_info)
        kate.key("Escape")

        # The quick fix from the Code Action menu (Alt+Return), then File → Save All.
        def quick_fix():
            kate.caret_at(view, '"Work"', 2)
            kate.key("alt+Return")
            item = wait_for(lambda: [n for n in kate.nodes("menu item", showing=True)
                                     if "Use the vault's spelling `work` everywhere" in n.get_name()],
                            lambda: "the code action in the menu (%r)" % [n.get_name() for n in kate.nodes("menu item", showing=True)])[0]
            kate.click(item)
            wait_for(lambda: 'tags = ["journal", "work"]' in kate.text(view), "the fix in the note")
            kate.menu("File", "Save All")

            def on_disk():
                notes = notes_text(vault)
                return (not [n for n, t in notes.items() if re.search(r"\b(Work|WORK)\b", t)]
                        and 'tags = ["journal", "work"]' in notes["journal/2026-12-01.md"]
                        and ":work:swift:" in notes["reading/papers.org"]) or None
            wait_for(on_disk, lambda: "no note on disk spelling Work or WORK (%r)" % {
                n: t for n, t in notes_text(vault).items() if re.search(r"\b(Work|WORK)\b", t)})
        check("the quick fix (Code Action menu) leaves one spelling of work, on disk in every note", quick_fix)

        # Rename `idea` in ideas.md with F2 (LSP Client → Rename), typing the new name; then
        # Save All. projects/tagd.md (never opened) on disk is the original with #idea: made
        # #thought:, nothing else.
        view = kate.editor("ideas.md")

        def rename():
            kate.caret_at(view, "[idea", 2)
            kate.key("F2")
            field = wait_for(lambda: [t for d in kate.popups() if d.get_role_name() == "dialog"
                                      for t in kate.nodes("text", root=d)], "the Rename dialog")[0]
            wait_for(lambda: kate.text(field) == "idea", "the dialog's field holding idea")
            kate.key("ctrl+a")
            kate.type("thought")
            kate.key("Return")
            wait_for(lambda: kate.nodes("page tab", "tagd.md"), "projects/tagd.md opened with the rename")
            wait_for(lambda: "tags: [thought, work]" in kate.text(view), "the rename in ideas.md")
            kate.editor("ideas.md")
            kate.menu("File", "Save All")
            with open(os.path.join(original, "projects", "tagd.md"), "rb") as f:
                expected = f.read().replace(b"#idea:", b"#thought:")
            path = os.path.join(vault, "projects", "tagd.md")

            def saved():
                with open(path, "rb") as f:
                    return f.read() == expected
            try:
                wait_for(saved, "projects/tagd.md on disk")
            except Failure:
                with open(path, "rb") as f:
                    raise Failure("projects/tagd.md on disk is %r, not %r" % (f.read(), expected))
            with open(os.path.join(vault, "ideas.md"), encoding="utf-8") as f:
                if "tags: [thought, work]" not in f.read():
                    raise Failure("ideas.md on disk was not renamed")
        check("rename (F2, typing the new name) changes the tag in another note on disk, and nothing else in it",
              rename)
    except NotInTree as e:
        if not results:
            print("kate-test.py: %s" % e, file=sys.stderr)
            return NOT_IN_TREE
        results.append(False)
        print("FAIL - kate: %s" % e, flush=True)
    except Exception as e:  # noqa: BLE001 — whatever stops the run is a failure the report names
        results.append(False)
        print("FAIL - kate: %s: %s" % (type(e).__name__, e), flush=True)
    finally:
        if kate:
            kate.kill()
        display.stop()
    return 0 if results and all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
