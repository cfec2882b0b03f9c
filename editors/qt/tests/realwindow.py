#!/usr/bin/python3
"""Real-window tests for the Qt widgets: the demo under its own Xvfb, real X keystrokes and
clicks (xdotool), results read back through AT-SPI (Qt's bridge) and through the widgets'
Qt properties (the demo's --control channel). Run inside a private D-Bus session
(run-tests uses dbus-run-session, which also starts the AT-SPI bus).

Usage: realwindow.py --tagd PATH --demo PATH [--shots DIR] [-k NAME]
"""
import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = ["vegan", "dinner", "weeknight"]
WAIT = 20.0  # the longest anything may take; an upper bound, never a time that must be met


class Failure(Exception):
    pass


def check(cond, message):
    if not cond:
        raise Failure(message)


def wait_for(predicate, what, timeout=WAIT):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = predicate()
            if last:
                return last
        except (Failure, GLib.GError) as e:
            last = "%s: %s" % (type(e).__name__, e)
        time.sleep(0.05)
    raise Failure("timed out waiting for %s (last: %r)" % (what, last))


class Display:
    """A private Xvfb on a display number that no X socket (abstract or file) uses."""

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


class Demo:
    def __init__(self, ctx, slow=False, extra=(), env=None, tagd=None, qml=False):
        self.ctx = ctx
        self.dir = tempfile.mkdtemp(prefix="demo-", dir=ctx.tmp)
        self.env = dict(ctx.env)
        self.env.update(env or {})
        program = ctx.tagd if tagd is None else tagd
        if slow:
            self.env["TAGD_REAL"] = program
            program = os.path.join(HERE, "slow-tagd")
        self.stderr_path = os.path.join(self.dir, "stderr.txt")
        self.stderr = open(self.stderr_path, "w")
        demo = ctx.qml_demo if qml else ctx.demo
        if not demo or not os.path.exists(demo):
            raise Skip("no QML demo %s (built with -DTAGDQT_BUILD_QML=OFF?)" % (demo or ""))
        argv = [demo, "--control"] + (["--tagd", program] if program else []) + list(extra)
        self.proc = subprocess.Popen(argv, env=self.env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        self.app = wait_for(self._find_app, "the demo in the AT-SPI tree")
        self.window = wait_for(self._find_window, "the demo's X window")
        wait_for(lambda: self.dump()["tags"] == BASE and self.nodes("text"), "the field with its three tags")
        wait_for(lambda: self.chips() == BASE, "the three chips through AT-SPI")
        self.focus_window()

    def _find_app(self):
        desktop = Atspi.get_desktop(0)
        for i in range(desktop.get_child_count()):
            app = desktop.get_child_at_index(i)
            if app is not None and app.get_process_id() == self.proc.pid:
                return app
        return None

    def _find_window(self):
        out = self.xdotool_out("search", "--onlyvisible", "--pid", str(self.proc.pid), "--name", "^Tags$")
        return out.split()[0] if out.split() else None

    def focus_window(self):
        self.xdotool("windowfocus", "--sync", self.window)

    def command(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        check(answer, "the demo answered nothing to %r (it died?)" % line)
        return json.loads(answer)

    def dump(self):
        return self.command("dump")

    def set(self, name, value, target="set"):
        check(self.command("%s %s %s" % (target, name, json.dumps(value)))["ok"], "setting %s failed" % name)

    def stop(self):
        pid_tagd = self.tagd_pids()
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for pid in pid_tagd:  # the demo stops its tagd on quit; make sure
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.stderr.close()

    def stderr_text(self):
        with open(self.stderr_path) as f:
            return f.read()

    def tagd_pids(self):
        """The demo's children (and theirs), by /proc."""
        out = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open("/proc/%s/stat" % entry) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == self.proc.pid:
                    out.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
        return out

    # AT-SPI

    def nodes(self, role=None, name=None, root=None):
        found = []

        def walk(node, depth=0):
            try:
                r, n = node.get_role_name(), node.get_name()
            except GLib.GError:
                return
            if (role is None or r == role) and (name is None or n == name):
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

    def node(self, role, name):
        n = self.nodes(role, name)
        return n[0] if n else None

    def field(self, name="Add a tag"):
        return self.node("text", name)

    def has_state(self, node, state):
        return node.get_state_set().contains(state)

    def text_of(self, node):
        return Atspi.Text.get_text(node, 0, Atspi.Text.get_character_count(node))

    def chips(self):
        """The tags as assistive technology sees them: the Remove buttons, in order (English, or
        German in the German session's tests)."""
        out = []
        for n in self.nodes("push button"):
            name = n.get_name()
            if not self.has_state(n, Atspi.StateType.SHOWING):
                continue
            if name.startswith("Remove "):
                out.append(name[len("Remove "):])
            elif name.endswith(" entfernen"):
                out.append(name[:-len(" entfernen")])
        return out

    def extents(self, node):
        return node.get_extents(Atspi.CoordType.SCREEN)

    def click(self, node, button="1", repeat=1):
        e = self.extents(node)
        self.xdotool("mousemove", "--sync", str(e.x + e.width // 2), str(e.y + e.height // 2))
        self.xdotool("click", "--repeat", str(repeat), "--delay", "40", button)

    # input

    def xdotool(self, *args):
        subprocess.run(["xdotool"] + list(args), env=self.env, check=True, capture_output=True)

    def xdotool_out(self, *args):
        return subprocess.run(["xdotool"] + list(args), env=self.env, capture_output=True, text=True).stdout

    def type(self, text):
        """Types at full speed: real X key events, no delay between them."""
        self.xdotool("type", "--delay", "0", "--", text)

    def key(self, *keys):
        self.xdotool("key", "--delay", "0", *keys)

    def settle(self, what="tagd to settle"):
        """Waits until two dumps a moment apart agree (tagd has answered everything)."""
        prev = [None]

        def stable():
            d = self.dump()
            d.pop("animationFrames", None)
            same = d == prev[0]
            prev[0] = d
            if not same:
                time.sleep(0.3)
            return same and d
        return wait_for(stable, what)


# ---------------------------------------------------------------------------------------------
# Tests. Each gets a fresh Xvfb and a fresh demo against the real tagd.

TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def both(fn):
    """Registers fn(ctx, qml) as two tests: on the widgets' demo, and (named qml_...) on the
    QML demo, for what the widgets and the Quick items must do alike."""
    for qml in (False, True):
        def run(ctx, qml=qml):
            return fn(ctx, qml)
        run.__name__ = ("qml_" if qml else "") + fn.__name__
        TESTS.append(run)
    return fn



@both
def startup_focus_and_one_tagd(ctx, qml):
    d = ctx.start(qml=qml)
    field = wait_for(lambda: d.field(), "the field's text named by tagd's prompt")
    wait_for(lambda: d.has_state(d.field(), Atspi.StateType.FOCUSED), "the field's text to hold keyboard focus at start")
    check(d.has_state(field, Atspi.StateType.EDITABLE), "the field's text is not editable")
    check(d.dump()["page"] == 0, "the Recipe tags page is not shown first")
    for tag in BASE:
        check(d.node("push button", "Remove " + tag) is not None, "no push button named 'Remove %s'" % tag)
    tagds = d.tagd_pids()
    check(len(tagds) == 1 and tagds[0] == d.dump()["pid"], "expected one tagd child shared by both widgets, got %r" % tagds)
    check(d.dump()["selection"] == ["SwiftUI"], "the cloud (other page) did not open on the same tagd")


@test
def commas_return_and_duplicates(ctx):
    d = ctx.start()
    d.type("spicy, one pot,  gluten-free")
    d.key("Return")
    wait_for(lambda: d.dump()["tags"] == BASE + ["spicy", "one pot", "gluten-free"], "three typed tags")
    wait_for(lambda: d.text_of(d.field()) == "", "the text to empty after Return")
    check(d.chips() == BASE + ["spicy", "one pot", "gluten-free"], "AT-SPI chips: %r" % d.chips())
    wait_for(lambda: not d.has_state(d.node("push button", "Add spicy"), Atspi.StateType.SHOWING),
             "the Suggested button of a present tag to disappear")
    check(d.has_state(d.node("push button", "Add 30 minutes"), Atspi.StateType.SHOWING),
          "the Suggested button of an absent tag is gone")
    d.type("VEGAN,")
    dump = wait_for(lambda: (x := d.dump())["dropped"] and x, "the duplicate to be dropped")
    check(dump["dropped"][-1] == {"text": "VEGAN", "reason": "Duplicate", "index": 0},
          "tagDropped: %r" % dump["dropped"])
    check(dump["tags"] == BASE + ["spicy", "one pot", "gluten-free"], "a duplicate changed the tags")
    check(any("VEGAN" in a and "vegan" in a for a in dump["announcements"]),
          "no announcement for the duplicate: %r" % dump["announcements"])


@both
def fast_bursts_with_slow_tagd_lose_nothing(ctx, qml):
    d = ctx.start(qml=qml, slow=True)
    words = ["red", "green", "blue", "yellow", "purple", "orange", "teal", "cyan", "magenta", "lime"]
    d.type(",".join(words) + ",oli")
    d.type("ve")
    d.key("BackSpace", "BackSpace", "BackSpace")
    d.type("x,abc")
    # Slow typing of the same keys: the ten words, then "olive" minus three letters is "ol",
    # then "x," makes "olx" a tag, and "abc" stays.
    wait_for(lambda: d.dump()["tags"] == BASE + words + ["olx"], "the tags of the burst")
    dump = d.settle("the burst to settle")
    check(dump["tags"] == BASE + words + ["olx"], "tags after the burst: %r" % dump["tags"])
    check(dump["draft"] == "abc", "draft after the burst: %r" % dump["draft"])
    check(d.text_of(d.field()) == "abc", "text after the burst: %r" % d.text_of(d.field()))
    # Return, then more typing, while the reply is in flight.
    d.key("Return")
    d.type("late,")
    want = BASE + words + ["olx", "abc", "late"]
    wait_for(lambda: d.dump()["tags"] == want, "the tags of Return and more")
    dump = d.settle()
    check(dump["tags"] == want, "tags after Return and more: %r" % dump["tags"])
    wait_for(lambda: d.chips() == want, "AT-SPI chips equal to the tags property")


@test
def paste_with_commas_and_newlines(ctx):
    d = ctx.start()
    d.command("clip " + json.dumps("red, green\nblue,yel"))
    d.key("ctrl+v")
    dump = wait_for(lambda: (x := d.dump())["tags"] == BASE + ["red", "green", "blue"] and x, "the pasted tags")
    check(dump["draft"] == "yel", "draft after paste: %r" % dump["draft"])
    wait_for(lambda: d.text_of(d.field()) == "yel", "the text 'yel' after the paste")


@test
def wraps_at_two_widths(ctx):
    d = ctx.start()
    d.type("spicy,gluten-free,30 minutes,one pot,")
    wait_for(lambda: len(d.chips()) == 7, "seven chips")

    def rows():
        ys = sorted({d.extents(d.node("push button", "Remove " + t)).y for t in d.chips()})
        return ys

    d.xdotool("windowsize", "--sync", d.window, "1100", "500")
    wait_for(lambda: len(rows()) == 1, "one line of chips at 1100 px")
    one = d.extents(d.field())
    d.xdotool("windowsize", "--sync", d.window, "360", "500")
    wait_for(lambda: len(rows()) >= 3, "three or more lines of chips at 360 px")
    narrow = d.extents(d.field())
    check(narrow.y > one.y, "the text did not move down when the chips wrapped")
    for t in d.chips():
        e = d.extents(d.node("push button", "Remove " + t))
        check(e.x + e.width <= narrow.x + 360, "chip %s sticks out of the narrow window" % t)
    d.xdotool("windowsize", "--sync", d.window, "1100", "500")
    wait_for(lambda: len(rows()) == 1, "one line again at 1100 px")
    # Taller than its space: the entry scrolls, and the text stays in view.
    d.type("a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,")
    d.xdotool("windowsize", "--sync", d.window, "300", "230")
    bar = wait_for(lambda: [b for b in d.nodes("scroll bar") if d.has_state(b, Atspi.StateType.SHOWING)
                            and d.extents(b).height > 20], "a vertical scroll bar in the entry")
    d.type("zz")
    wait_for(lambda: (lambda t, b: b.y <= t.y and t.y + t.height <= b.y + b.height + 2)(
        d.extents(d.field()), d.extents(bar[0])), "the text scrolled into the entry's view")
    wait_for(lambda: d.text_of(d.field()) == "zz", "typing into the scrolled entry")


@test
def suggested_buttons_are_teal_capsules(ctx):
    """The Suggested row as the seed draws it: capsules (ends fully round: radius = height / 2)
    tinted teal, read back as pixels on screen."""
    d = ctx.start()
    time.sleep(0.3)

    def px(x, y):
        return tuple(d.command("pixel %d %d" % (x, y))["rgb"])
    for tag in ("spicy", "gluten-free", "30 minutes", "one pot"):
        e = d.extents(d.node("push button", "Add " + tag))
        h, w = e.height, e.width
        check(h >= 16 and w > 2 * h, "Add %s is %dx%d" % (tag, w, h))
        page = px(e.x - 4, e.y + h // 2)
        # 0.1 h in from each corner lies outside a capsule (0.57 h from the end circle's
        # centre), but inside a rectangle or a box whose corner radius is below ~0.34 h.
        k = max(2, round(h * 0.1))
        for cx, cy in ((e.x + k, e.y + k), (e.x + w - 1 - k, e.y + k), (e.x + k, e.y + h - 1 - k),
                       (e.x + w - 1 - k, e.y + h - 1 - k)):
            check(px(cx, cy) == page, "Add %s is not round at its corner (%d, %d): %r, the page is %r"
                  % (tag, cx - e.x, cy - e.y, px(cx, cy), page))
        end = px(e.x + 1, e.y + h // 2)
        check(end != page, "Add %s: no edge at the middle of its left end" % tag)
        r, g, b = px(e.x + w // 2, e.y + 3)  # inside, above the label
        check(b > r + 15 and g > r + 15, "Add %s is not tinted teal: %r" % (tag, (r, g, b)))
    d.click(d.node("push button", "Add spicy"))
    wait_for(lambda: d.dump()["tags"] == BASE + ["spicy"], "the capsule to add spicy")
    wait_for(lambda: not d.has_state(d.node("push button", "Add spicy"), Atspi.StateType.SHOWING),
             "Add spicy to disappear once spicy is present")
    d.click(d.node("push button", "Remove spicy"))
    wait_for(lambda: d.has_state(d.node("push button", "Add spicy"), Atspi.StateType.SHOWING),
             "Add spicy back once spicy is removed")


@test
def removal_by_click(ctx):
    d = ctx.start()
    d.click(d.node("push button", "Remove dinner"))
    wait_for(lambda: d.dump()["tags"] == ["vegan", "weeknight"], "dinner removed by its button")
    wait_for(lambda: d.chips() == ["vegan", "weeknight"], "dinner gone from the AT-SPI tree")
    check(any("dinner" in a for a in d.dump()["announcements"]), "no announcement for the removal")
    d.click(d.node("push button", "Add 30 minutes"))
    wait_for(lambda: d.dump()["tags"] == ["vegan", "weeknight", "30 minutes"], "a Suggested button to add its tag")
    d.click(d.node("filler", "vegan"), repeat=2)
    chip_editor(d, "vegan")  # a double-click edits the chip in place
    check(d.dump()["tags"] == ["vegan", "weeknight", "30 minutes"], "editing took the tag out: %r" % d.dump()["tags"])
    d.key("Escape")
    wait_for(lambda: not d.nodes("text", "Edit vegan"), "Escape to end the edit")


@test
def commit_on_blur(ctx):
    d = ctx.start()
    d.set("commitOnBlur", True)
    d.type("abc")
    d.key("Tab")  # no suggestion for "abc": Tab leaves the entry
    wait_for(lambda: d.dump()["tags"] == BASE + ["abc"], "leaving the entry to commit the draft")
    check(not d.has_state(d.field(), Atspi.StateType.FOCUSED), "the text kept the focus")


@test
def chip_keys_select_move_edit_remove_undo(ctx):
    d = ctx.start()
    d.key("Left")
    wait_for(lambda: d.dump()["selected"] == 2, "Left at the start of the draft to select the last chip")
    d.key("Left")
    wait_for(lambda: d.dump()["selected"] == 1, "Left to select the previous chip")
    d.key("Right")
    wait_for(lambda: d.dump()["selected"] == 2, "Right to select the next chip")
    d.key("alt+Left")
    wait_for(lambda: d.dump()["tags"] == ["vegan", "weeknight", "dinner"], "Alt+Left to move the chip")
    check(d.dump()["selected"] == 1, "the moved chip is not selected any more")
    d.key("alt+Right")
    wait_for(lambda: d.dump()["tags"] == BASE, "Alt+Right to move it back")
    d.key("Return")
    chip_editor(d, "weeknight")
    d.key("End")
    d.type("s")
    d.key("Return")
    wait_for(lambda: d.dump()["tags"] == ["vegan", "dinner", "weeknights"], "the edited tag committed in place")
    wait_for(lambda: d.dump()["selected"] == 2, "the edited chip still selected")
    d.key("Left", "BackSpace")
    wait_for(lambda: d.dump()["tags"] == ["vegan", "weeknights"], "BackSpace to remove the selected chip")
    d.key("Left", "Left", "Left", "Delete")
    wait_for(lambda: d.dump()["tags"] == ["weeknights"], "Delete to remove the selected chip")
    check(d.dump()["canUndo"] and not d.dump()["canRedo"], "canUndo/canRedo before undo: %r" % d.dump())
    d.key("ctrl+z")
    wait_for(lambda: d.dump()["tags"] == ["vegan", "weeknights"], "Ctrl+Z to undo the removal")
    wait_for(lambda: d.dump()["canRedo"], "canRedo after undo")
    d.key("ctrl+shift+z")
    wait_for(lambda: d.dump()["tags"] == ["weeknights"], "Ctrl+Shift+Z to redo it")
    check(d.chips() == ["weeknights"], "AT-SPI chips: %r" % d.chips())
    check(d.stderr_text().count("failed") == 0, "tagd refused a request:\n" + d.stderr_text())


@test
def backspace_on_empty_and_escape(ctx):
    d = ctx.start()
    d.type("ab")
    d.key("BackSpace", "BackSpace", "BackSpace")
    wait_for(lambda: d.dump()["tags"] == ["vegan", "dinner"], "BackSpace on an empty text to remove the last tag")
    check(d.dump()["draft"] == "", "the draft is not empty")


@test
def tab_takes_the_best_suggestion(ctx):
    d = ctx.start()
    d.type("sp")
    popup = wait_for(lambda: [n.get_name() for n in d.nodes("list item")] or None, "the suggestion list")
    check(popup[0] == "spicy", "best suggestion for 'sp': %r" % popup)
    d.key("Tab")
    wait_for(lambda: d.dump()["tags"] == BASE + ["spicy"], "Tab to take the best suggestion")
    wait_for(lambda: d.text_of(d.field()) == "", "the draft to empty")
    check(d.has_state(d.field(), Atspi.StateType.FOCUSED), "Tab moved focus out of the field")
    d.type("o")
    items = wait_for(lambda: (x := [n.get_name() for n in d.nodes("list item")
                                    if d.has_state(n, Atspi.StateType.SHOWING)]) and len(x) >= 2 and x,
                     "two or more suggestions for 'o'")
    d.key("Down", "Down", "Return")  # the first Down highlights the best one, the second the next
    wait_for(lambda: d.dump()["tags"] == BASE + ["spicy", items[1]], "Down and Return to take the second suggestion")


@test
def options_as_properties(ctx):
    d = ctx.start()
    d.set("prompt", "Add an ingredient")
    wait_for(lambda: d.field("Add an ingredient"), "the text named by the new prompt")
    d.set("maxTags", 4)
    d.set("transform", "Uppercase")
    d.set("denied", ["meat"])
    d.type("meat,spicy,more,")
    dump = d.settle()
    # A new transform rewrites new candidates only (field/setOptions): the tags there keep their spelling.
    check(dump["tags"] == ["vegan", "dinner", "weeknight", "SPICY"], "tags with maxTags 4, uppercase and a deny list: %r" % dump["tags"])
    reasons = [x["reason"] for x in dump["dropped"]]
    check(reasons == ["Denied", "TooMany"], "drop reasons: %r" % dump["dropped"])
    d.set("prompt", "")
    wait_for(lambda: d.field("Add a tag"), "tagd's own prompt back")
    d.set("tags", ["a", "b"])
    wait_for(lambda: d.dump()["tags"] == ["A", "B"], "setting tags (under the uppercase transform)")
    check(d.chips() == ["A", "B"], "AT-SPI chips: %r" % d.chips())


@both
def restart_when_tagd_dies(ctx, qml):
    d = ctx.start(qml=qml)
    d.type("spicy,")
    wait_for(lambda: d.dump()["tags"] == BASE + ["spicy"], "spicy")
    before = len(d.settle()["announcements"])
    os.kill(d.dump()["pid"], signal.SIGKILL)
    d.type("one pot")
    wait_for(lambda: d.dump()["restarts"] == 1, "a restart")
    d.type(",")
    wait_for(lambda: d.dump()["tags"] == BASE + ["spicy", "one pot"], "typing after the restart")
    said = d.settle()["announcements"][before:]
    # The re-opened session's own outcome (every tag "added") is not news to the user.
    check(said and all("one pot" in a and "vegan" not in a for a in said),
          "after the restart the screen reader was told %r for the one tag added" % said)
    check(len(d.tagd_pids()) == 1, "more than one tagd after the restart")
    d.command("page 1")
    wait_for(lambda: d.dump()["groups"], "the cloud re-laid out")
    check(d.dump()["selection"] == ["SwiftUI"], "the cloud lost its selection")


@test
def tests_keep_to_their_own_session(ctx):
    ctx.env_only()
    runtime = ctx.env.get("XDG_RUNTIME_DIR", "")
    check(runtime.endswith("/tagd-qt-runtime"), "the tests' XDG_RUNTIME_DIR is their own temporary one: %r" % runtime)
    address = subprocess.run(["gdbus", "call", "--session", "--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus",
                              "--method", "org.a11y.Bus.GetAddress"], env=ctx.env, capture_output=True, text=True).stdout
    check(runtime in address, "the AT-SPI bus the tests use lives in that directory: %r" % address)
    check("AT_SPI_BUS_ADDRESS" not in ctx.env, "the user's AT-SPI bus address reached the tests")


@both
def keys_cut_off_by_a_tagd_death_are_kept(ctx, qml):
    """A Return in flight when tagd dies (slow-tagd holds it 0.2 s each way) commits the text it
    was pressed on, and the keys typed after it stay text; then the same for a Return pressed
    while tagd restarts, and a chip's Backspace."""
    d = ctx.start(qml=qml, slow=True)
    d.type("more")
    d.settle("more to settle")
    d.key("Return")
    d.type("after")
    check(d.dump()["tags"] == BASE, "the Return was answered before tagd died: this run cannot see the case")
    os.kill(d.dump()["pid"], signal.SIGKILL)
    wait_for(lambda: d.dump()["restarts"] == 1, "a restart")
    wait_for(lambda: d.dump()["tags"] == BASE + ["more"], "the Return in flight to commit more")
    dump = d.settle("the restart to settle")
    check(dump["tags"] == BASE + ["more"] and dump["draft"] == "after",
          "after the death: %r, %r (not more / after)" % (dump["tags"], dump["draft"]))
    # Killed again, and Return pressed at once: while tagd restarts.
    os.kill(dump["pid"], signal.SIGKILL)
    d.key("Return")
    d.type("x")
    wait_for(lambda: d.dump()["restarts"] == 2, "a second restart")
    wait_for(lambda: d.dump()["tags"] == BASE + ["more", "after"], "the Return during the restart to commit after")
    dump = d.settle("the second restart to settle")
    check(dump["draft"] == "x", "the key typed after that Return: draft %r" % dump["draft"])
    wait_for(lambda: d.chips() == BASE + ["more", "after"], "AT-SPI chips equal to the tags")


@test
def cloud_selection_and_keyboard(ctx):
    d = ctx.start()
    d.command("page 1")
    titles = ["SwiftUI", "Animation", "Layout", "Glass", "Gestures", "Symbols", "Charts", "Navigation", "Metal", "Widgets"]
    buttons = wait_for(lambda: (b := [d.node(r, t) for t in titles for r in ("check box", "toggle button", "push button")
                                      if d.node(r, t)]) and len(b) == 10 and b, "ten cloud buttons")
    role = buttons[0].get_role_name()
    check(role in ("check box", "toggle button"), "a cloud tag is a %s, not a checkable button" % role)
    check(d.has_state(buttons[0], Atspi.StateType.CHECKED), "SwiftUI is not checked")
    check(not d.has_state(buttons[6], Atspi.StateType.CHECKED), "Charts is checked")
    d.click(buttons[6])
    wait_for(lambda: d.dump()["selection"] == ["SwiftUI", "Charts"], "Charts selected by a click")
    wait_for(lambda: d.has_state(d.node(role, "Charts"), Atspi.StateType.CHECKED), "Charts checked in AT-SPI")
    d.key("space")  # the clicked tag has focus: Space toggles it back
    wait_for(lambda: d.dump()["selection"] == ["SwiftUI"], "Space to deselect Charts")
    check(len(d.dump()["groups"]) == 10, "at spacing 18 every tag is its own group: %r" % d.dump()["groups"])


CLOUD = ["SwiftUI", "Animation", "Layout", "Glass", "Gestures", "Symbols", "Charts", "Navigation", "Metal", "Widgets"]


def cloud_tags_inside(d, margin):
    """Every cloud tag's AT-SPI extents inside the cloud widget's (its parent's) and the window's,
    at least `margin` px from the cloud's edges (room for the glass around it)."""
    tags = [d.node("check box", t) for t in CLOUD]
    check(all(tags), "ten cloud tags in the tree")
    cloud = d.extents(tags[0].get_parent())
    win = d.extents(d.nodes("frame")[0])
    rows = set()
    for t, node in zip(CLOUD, tags):
        e = d.extents(node)
        check(e.width > 20 and e.height > 10, "%s has no size: %r" % (t, (e.x, e.y, e.width, e.height)))
        for box, m, what in ((cloud, margin, "the cloud"), (win, 0, "the window")):
            check(e.x >= box.x + m and e.x + e.width <= box.x + box.width - m
                  and e.y >= box.y + m and e.y + e.height <= box.y + box.height - m,
                  "%s at x %d..%d, y %d..%d is not inside %s (x %d..%d, y %d..%d, margin %d)"
                  % (t, e.x, e.x + e.width, e.y, e.y + e.height, what, box.x, box.x + box.width,
                     box.y, box.y + box.height, m))
        rows.add(e.y)
    return len(rows)


@test
def cloud_fits_its_width_and_wraps(ctx):
    d = ctx.start()
    d.command("page 1")
    wait_for(lambda: len(d.dump()["groups"]) == 10, "ten groups at spacing 18")
    d.settle()
    margin = 5  # half the merge distance (10): the glass drawn around each tag
    wide = wait_for(lambda: cloud_tags_inside(d, margin), "every tag inside the cloud at 640 px")
    d.xdotool("windowsize", "--sync", d.window, "420", "500")
    narrow = wait_for(lambda: (n := cloud_tags_inside(d, margin)) > wide and n, "the cloud rewrapped at 420 px")
    d.xdotool("windowsize", "--sync", d.window, "640", "420")
    wait_for(lambda: cloud_tags_inside(d, margin) < narrow, "the cloud back to fewer rows at 640 px")


@test
def tight_spacing_animates_and_merges_groups(ctx):
    d = ctx.start()
    d.command("page 1")
    wait_for(lambda: len(d.dump()["groups"]) == 10, "ten groups at spacing 18")
    hidden = [w for w, shown in d.dump()["cloudLayouts"] if not shown]
    check(not hidden, "the cloud was laid out while hidden, at widths %r it is not shown at" % hidden)
    cloud_tags_inside(d, 5)  # no waiting: once tagd has answered, every tag is in its place
    ctx.shot(d, "pick-your-interests.png")
    switch = d.node("check box", "Tight spacing")
    e = d.extents(switch)
    page = tuple(d.command("pixel %d %d" % (e.x - 6, e.y + e.height // 2))["rgb"])

    def track(on=True):  # a point of the switch's track beside its knob (left when on, right when off)
        x, y, w, h = d.command("rects")["switch"]  # the whole row; the track is at its trailing end
        right = x + w - 2
        return tuple(d.command("pixel %d %d" % (right - 38 + 8 if on else right - 7, y + h // 2))["rgb"])
    check(max(track(False)) - max(page) > 40,
          "the switch's track does not stand out from the dark page: %r on %r" % (track(False), page))
    d.click(switch)
    wait_for(lambda: d.dump()["spacing"] == 3 and not d.dump()["animating"], "the animation to end")
    d.settle()
    dump = d.dump()
    frames = dump["animationFrames"]
    xs = [f[1] for f in frames if len(f) > 1]
    r, g, b = track()
    check(g > r + 60 and g > b + 60, "the switch is not green when on: %r" % ((r, g, b),))
    check(len(set(xs)) >= 3, "fewer than three in-between layouts of the second tag: %r" % xs)
    check(len(dump["groups"]) < 10, "tight spacing merged no tags: %r" % dump["groups"])
    check(all(len(g) > 1 for g in dump["groups"]), "a lone tag at spacing 3: %r" % dump["groups"])
    ctx.shot(d, "interests-tight.png")


@test
def no_animation_when_the_desktop_asks_for_reduced_motion(ctx):
    # As KDE's System Settings writes it when animations are turned off.
    os.makedirs(os.path.join(ctx.tmp, "config"), exist_ok=True)
    with open(os.path.join(ctx.tmp, "config", "kdeglobals"), "w") as f:
        f.write("[KDE]\nAnimationDurationFactor=0\n")
    d = ctx.start()
    d.command("page 1")
    wait_for(lambda: len(d.dump()["groups"]) == 10, "ten groups")
    d.set("spacing", 3, target="cloud")
    wait_for(lambda: len(d.dump()["groups"]) < 10, "the tight layout")
    check(d.dump()["animationFrames"] == [], "in-between layouts with animations off")


@test
def screenshots_of_the_recipe_page(ctx):
    d = ctx.start()
    d.type("one p")
    wait_for(lambda: d.nodes("list item"), "the suggestions")
    time.sleep(0.3)
    ctx.shot(d, "recipe-tags.png", screen=True)


@test
def finds_the_repository_build_without_settings(ctx):
    """No program set, no $TAGD, no tagd on PATH: the library finds the checkout's own
    .build/debug/tagd above the directory it was loaded from."""
    root = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
    repo_tagd = os.path.join(root, ".build", "debug", "tagd")
    if not os.access(repo_tagd, os.X_OK):
        raise Skip("no %s (swift build at the repository root)" % repo_tagd)
    path = ":".join(p for p in os.environ.get("PATH", "").split(":")
                    if not os.access(os.path.join(p, "tagd"), os.X_OK))
    d = ctx.start(tagd="", env={"TAGD": "", "PATH": path})
    exe = os.path.realpath("/proc/%d/exe" % d.dump()["pid"])
    check(exe == os.path.realpath(repo_tagd), "started %s, not the repository's %s" % (exe, repo_tagd))


@test
def announcements_in_the_locale(ctx):
    """QLocale's name goes to tagd as initialize's `locale`; a tagd that speaks German then
    announces in German."""
    log = os.path.join(ctx.tmp, "sent.jsonl")
    d = ctx.start(slow=True, env={"LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8", "LANGUAGE": "de",
                                  "TAGD_DELAY": "0", "TAGD_LOG": log})
    with open(log) as f:
        first = json.loads(f.readline())
    check(first["method"] == "initialize" and first["params"].get("locale") == "de_DE",
          "initialize did not carry the locale de_DE: %r" % first)
    info = subprocess.run([ctx.tagd], input='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n',
                          capture_output=True, text=True, timeout=10).stdout
    if "languages" not in info:
        raise Skip("locale sent; this tagd speaks only English (no `languages` in initialize)")
    check(d.dump()["language"] == "de", "tagd chose %r for a German locale" % d.dump()["language"])
    names = [n.get_name() for n in d.nodes("text")]
    check(names and names[0] and names[0] != "Add a tag", "the text is not named by tagd's German prompt: %r" % names)
    d.type("spicy,")
    dump = wait_for(lambda: (x := d.dump())["announcements"] and x, "an announcement")
    check("Added" not in dump["announcements"][-1], "announced in English: %r" % dump["announcements"])


# ---------------------------------------------------------------------------------------------
# The vault in a notes app (SPEC §6d): the demo's Notes page on a copy of the sample vault that
# the GTK demo uses too (editors/gtk/demo/vault).

SAMPLE_VAULT = os.path.join(HERE, "..", "..", "gtk", "demo", "vault")


def showing(d, nodes):
    return [n for n in nodes if d.has_state(n, Atspi.StateType.SHOWING)]


@test
def notes_page_vault_cloud_notes_and_front_matter(ctx):
    vault = os.path.join(tempfile.mkdtemp(prefix="vault-", dir=ctx.tmp), "vault")
    shutil.copytree(SAMPLE_VAULT, vault)
    d = ctx.start(extra=["--vault", vault])
    d.click(wait_for(lambda: d.node("page tab", "Notes"), "the Notes tab"))
    wait_for(lambda: d.dump()["page"] == 2, "the Notes page")
    # The cloud: the vault's tags, those carried by the most notes first (dinner and vegan: 3
    # notes each, quick: 2, the rest: 1), as the user sees them: checkable tags on screen.
    tags = wait_for(lambda: (t := d.dump()["notes"]["tags"]) and len(t) == 7 and t, "the vault's seven tags")
    check(set(tags[:2]) == {"dinner", "vegan"} and tags[2] == "quick"
          and set(tags) == {"dinner", "vegan", "quick", "spicy", "lunch", "soup", "winter"},
          "the vault's tags, most used first: %r" % tags)
    dinner = wait_for(lambda: showing(d, d.nodes("check box", "dinner")), "dinner on screen")[0]
    # Its selection names the notes that carry every selected tag, listed on screen.
    d.click(dinner)
    # Each note by tagd's title (its front matter's `title`), as the GTK demo lists them.
    listed = lambda: sorted(n.get_name() for n in showing(d, d.nodes("list item")))
    wait_for(lambda: listed() == ["Chickpea curry", "Tomato soup", "Weeknight pasta"],
             "the three dinner notes listed by their titles")
    d.click(showing(d, d.nodes("check box", "vegan"))[0])
    wait_for(lambda: listed() == ["Chickpea curry", "Weeknight pasta"], "the two vegan dinners listed")
    # The note picked (by its title; the entry then edits the note at its URI): its tags in the
    # entry; a vault tag is suggested while typing.
    d.click([n for n in showing(d, d.nodes("list item")) if n.get_name() == "Weeknight pasta"][0])
    wait_for(lambda: d.dump()["notes"]["noteTags"] == ["dinner", "vegan", "quick"], "the note's tags in the entry")
    ctx.shot(d, "notes.png")
    text = wait_for(lambda: showing(d, d.nodes("text", "Add a tag")), "the Notes page's entry")[0]
    d.click(text)
    d.type("spi")
    # (the notes list's rows are list items too: only the popup can hold "spicy")
    wait_for(lambda: "spicy" in [n.get_name() for n in d.nodes("list item")],
             "the vault's spicy suggested while typing (suggestFromVault)")
    d.key("Escape", "ctrl+a", "BackSpace")
    # A tag added is written into the note's front matter; the rest of the note is kept.
    d.type("easy,")
    wait_for(lambda: d.dump()["notes"]["noteTags"] == ["dinner", "vegan", "quick", "easy"], "easy added")
    path = os.path.join(vault, "pasta.md")
    wait_for(lambda: "easy" in open(path).read().split("---")[1], "easy written into the note's front matter")
    with open(path) as f:
        note = f.read()
    check(note.startswith("---\ntitle: Weeknight pasta\n") and "Boil the pasta" in note,
          "the rest of the note as it was: %r" % note)
    check(open(os.path.join(vault, "curry.md")).read() == open(os.path.join(SAMPLE_VAULT, "curry.md")).read(),
          "the other notes untouched")
    # tagd reads the change and the cloud shows the new tag.
    wait_for(lambda: showing(d, d.nodes("check box", "easy")), "the new tag in the cloud")


@test
def qml_notes_page_vault_cloud_notes_and_front_matter(ctx):
    """The QML demo's Notes page, as the widget demo's (notes_page_vault_cloud_notes_and_front_matter)."""
    vault = os.path.join(tempfile.mkdtemp(prefix="vault-", dir=ctx.tmp), "vault")
    shutil.copytree(SAMPLE_VAULT, vault)
    d = ctx.start(qml=True, extra=["--vault", vault])
    d.click(wait_for(lambda: d.node("page tab", "Notes"), "the Notes tab"))
    wait_for(lambda: d.dump()["page"] == 2, "the Notes page")
    page = lambda: d.dump()["notesPage"]
    tags = wait_for(lambda: (t := page()["tags"]) and len(t) == 7 and t, "the vault's seven tags")
    check(set(tags[:2]) == {"dinner", "vegan"} and tags[2] == "quick"
          and set(tags) == {"dinner", "vegan", "quick", "spicy", "lunch", "soup", "winter"},
          "the vault's tags, most used first: %r" % tags)
    d.click(wait_for(lambda: showing(d, d.nodes("check box", "dinner")), "dinner on screen")[0])
    listed = lambda: sorted(n.get_name() for n in showing(d, d.nodes("list item")))
    wait_for(lambda: listed() == ["Chickpea curry", "Tomato soup", "Weeknight pasta"],
             "the three dinner notes listed by their titles")
    d.click(showing(d, d.nodes("check box", "vegan"))[0])
    wait_for(lambda: listed() == ["Chickpea curry", "Weeknight pasta"], "the two vegan dinners listed")
    d.click([n for n in showing(d, d.nodes("list item")) if n.get_name() == "Weeknight pasta"][0])
    wait_for(lambda: page()["noteTags"] == ["dinner", "vegan", "quick"], "the note's tags in the entry")
    ctx.shot(d, "qml-notes.png")
    text = wait_for(lambda: showing(d, d.nodes("text", "Add a tag")), "the Notes page's entry")[0]
    d.click(text)
    d.type("spi")
    wait_for(lambda: "spicy" in [n.get_name() for n in d.nodes("list item")],
             "the vault's spicy suggested while typing (suggestFromVault)")
    d.key("Escape", "ctrl+a", "BackSpace")
    d.type("easy,")
    wait_for(lambda: page()["noteTags"] == ["dinner", "vegan", "quick", "easy"], "easy added")
    path = os.path.join(vault, "pasta.md")
    wait_for(lambda: "easy" in open(path).read().split("---")[1], "easy written into the note's front matter")
    with open(path) as f:
        note = f.read()
    check(note.startswith("---\ntitle: Weeknight pasta\n") and "Boil the pasta" in note,
          "the rest of the note as it was: %r" % note)
    check(open(os.path.join(vault, "curry.md")).read() == open(os.path.join(SAMPLE_VAULT, "curry.md")).read(),
          "the other notes untouched")
    wait_for(lambda: showing(d, d.nodes("check box", "easy")), "the new tag in the cloud")


@test
def qml_cloud_shows_a_vault_and_its_notes(ctx):
    """The QML cloud's vault property: the demo's cloud is given a copy of the sample vault, and
    a dinner note with no title (no front-matter title, no heading)."""
    vault = os.path.join(tempfile.mkdtemp(prefix="vault-", dir=ctx.tmp), "vault")
    shutil.copytree(SAMPLE_VAULT, vault)
    with open(os.path.join(vault, "leftovers.md"), "w") as f:
        f.write("---\ntags: [dinner]\n---\nWhatever is in the fridge.\n")
    d = ctx.start(qml=True)
    d.set("vault", vault, target="cloud")
    # The cloud: the vault's tags replace the titles, most used first, as check boxes on screen.
    d.command("page 1")
    tags = wait_for(lambda: (t := d.dump()["cloudTitles"]) and len(t) == 7 and t, "the vault's seven tags")
    check(set(tags[:2]) == {"dinner", "vegan"} and tags[2] == "quick", "most used first: %r" % tags)
    d.click(wait_for(lambda: showing(d, d.nodes("check box", "dinner")), "dinner on screen")[0])
    names = lambda: sorted(os.path.basename(u) for u in d.dump()["notes"])
    wait_for(lambda: names() == ["curry.md", "leftovers.md", "pasta.md", "soup.md"], "the dinner notes (last: %r)" % names())
    # noteTitles: each note's title, in the order of notes (one per note); the untitled note by
    # its file name without the extension.
    titled = lambda: [(os.path.basename(u), t) for u, t in zip(d.dump()["notes"], d.dump()["noteTitles"])]
    wait_for(lambda: titled() == [("curry.md", "Chickpea curry"), ("leftovers.md", "leftovers"),
                                  ("pasta.md", "Weeknight pasta"), ("soup.md", "Tomato soup")]
             and len(d.dump()["noteTitles"]) == 4, "the dinner notes' titles")
    d.click(showing(d, d.nodes("check box", "spicy"))[0])
    wait_for(lambda: names() == ["curry.md"], "the spicy dinner")
    wait_for(lambda: d.dump()["noteTitles"] == ["Chickpea curry"], "the spicy dinner's title")


@test
def qml_entry_vault_set_after_open_suggests_its_tags(ctx):
    """The QML TagEdit's vault given once the field is open (field/setOptions with
    suggestFromVault): typing suggests the folder's tags, as when it is set before."""
    vault = os.path.join(tempfile.mkdtemp(prefix="vault-", dir=ctx.tmp), "vault")
    shutil.copytree(SAMPLE_VAULT, vault)
    d = ctx.start(qml=True)
    d.settle()  # the field is open on tagd
    d.set("vault", vault)
    time.sleep(0.3)
    d.type("wint")
    rows = lambda: [n.get_name() for n in d.nodes("list item") if d.has_state(n, Atspi.StateType.SHOWING)]
    wait_for(lambda: rows() == ["winter"], "the vault's winter suggested for 'wint'")
    d.key("Tab")
    wait_for(lambda: d.dump()["tags"] == BASE + ["winter"], "Tab to take the vault's tag")


class Orca:
    """Orca 43 in this test's D-Bus session, speaking into a file (tests/orca/tagdqt_speech.py),
    with key echo off so that typed letters are not mistaken for announcements."""

    def __init__(self, ctx):
        self.dir = tempfile.mkdtemp(prefix="orca-", dir=ctx.tmp)
        self.log = os.path.join(self.dir, "speech.txt")
        open(self.log, "w").close()
        quiet = {"speechServerFactory": "tagdqt_speech", "enableSpeech": True, "enableKeyEcho": False,
                 "enableEchoByCharacter": False, "enableEchoByWord": False, "enableEchoBySentence": False,
                 "enableTutorialMessages": False, "enableBraille": False, "enableSound": False,
                 "profile": ["Default", "default"]}
        with open(os.path.join(self.dir, "user-settings.conf"), "w") as f:
            json.dump({"general": dict(quiet), "profiles": {"default": dict(quiet)},
                       "pronunciations": {}, "keybindings": {}}, f)
        env = dict(ctx.env)
        env["PYTHONPATH"] = os.path.join(HERE, "orca")
        env["TAGD_SPEECH_LOG"] = self.log
        self.stderr = open(os.path.join(self.dir, "stderr.txt"), "w")
        # Debian's Orca through tests/orca/run-orca: the launcher itself refuses to start while
        # another process named orca (the user's screen reader) runs.
        self.proc = subprocess.Popen([os.path.join(HERE, "orca", "run-orca"), "-u", self.dir] + (["--debug-file", os.environ["ORCA_DEBUG"]] if os.environ.get("ORCA_DEBUG") else []), env=env, stdout=self.stderr, stderr=self.stderr)
        wait_for(lambda: "Screen reader on" in self.spoken(), "Orca to start speaking", timeout=60)

    def spoken(self):
        with open(self.log, encoding="utf-8") as f:
            return f.read()

    def quiet(self, still=1.0):
        """Waits until Orca has said nothing new for `still` seconds."""
        last = [None, time.monotonic()]

        def unchanged():
            now = self.spoken()
            if now != last[0]:
                last[0], last[1] = now, time.monotonic()
            return time.monotonic() - last[1] >= still
        wait_for(unchanged, "Orca to finish speaking")

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.stderr.close()


@both
def orca_speaks_every_announcement(ctx, qml):
    if shutil.which("orca") is None:
        raise Skip("orca is not installed")
    ctx.env_only()
    # A process named orca, as the user's own screen reader would be: the test's Orca must
    # start beside it, not refuse.
    users = os.path.join(ctx.tmp, "orca")
    shutil.copy("/bin/sleep", users)
    user_orca = subprocess.Popen([users, "600"])
    try:
        orca = ctx.orca = Orca(ctx)
    finally:
        user_orca.kill()
        user_orca.wait()
    d = ctx.start(qml=qml)
    # Orca drops the focus events of an application it does not know yet (no window manager):
    # move focus away and back, as a user switching windows would.
    name = "tagd-qml-demo" if qml else "tagd-qt-demo"
    wait_for(lambda: name in subprocess.run(["orca", "-l"], env=ctx.env, capture_output=True,
                                                      text=True).stdout or True, "Orca to see the demo")
    time.sleep(1.0)
    d.key("shift+Tab")
    time.sleep(0.3)
    d.key("Tab")
    wait_for(lambda: "Add a tag" in orca.spoken(), "Orca to read the field when it gets focus")
    d.type("spicy,")
    wait_for(lambda: "Added spicy." in orca.spoken(), "Orca to say 'Added spicy.'")
    d.type("VEGAN,")
    wait_for(lambda: "VEGAN is already a tag, as vegan." in orca.spoken(), "Orca to say the duplicate")
    d.type("spicy,")  # the same sentence as before, spoken again
    wait_for(lambda: orca.spoken().count("is already a tag") == 2, "Orca to say a repeated sentence again")
    d.key("Left")
    wait_for(lambda: d.dump()["selected"] == 3, "a chip selected")
    d.key("Delete")
    wait_for(lambda: d.dump()["tags"] == BASE, "the chip removed")
    d.key("ctrl+z")
    wait_for(lambda: d.dump()["tags"] == BASE + ["spicy"], "the removal undone")
    d.key("ctrl+shift+z")
    wait_for(lambda: d.dump()["tags"] == BASE, "the removal redone")
    d.key("Left")
    wait_for(lambda: d.dump()["selected"] == 2, "weeknight selected")
    d.key("alt+Left")
    wait_for(lambda: d.dump()["tags"] == ["vegan", "weeknight", "dinner"], "weeknight moved")
    d.key("End")
    # tagd killed: after the restart Orca hears the one tag typed, not every tag re-opened.
    heard = len(orca.spoken())
    os.kill(d.dump()["pid"], signal.SIGKILL)
    wait_for(lambda: d.dump()["restarts"] == 1, "a restart")
    d.type("tofu,")
    wait_for(lambda: "Added tofu." in orca.spoken()[heard:], "Orca to say 'Added tofu.' after the restart")
    d.settle()
    after = orca.spoken()[heard:]
    check("vegan" not in after and " tags." not in after,
          "after the restart Orca said more than the one tag added:\n%s" % after)
    # A stricter rule at run time keeps the tags and says so.
    # (Orca is let finish before the next keys: Qt 6.4's bridge hands each key to Orca and waits
    # for its answer, while Orca, reading the changes, waits for the application's: typing into
    # that stalls both for D-Bus's 25 s timeout, and the sentences of that time are lost.)
    d.set("maxTagLength", 5)
    wait_for(lambda: "weeknight" in d.dump()["announcements"][-1], "tagd's sentence for the kept tags")
    orca.quiet()
    # Refusals by rule, with their reasons: a deny list and the tag limit.
    d.set("denied", ["meat"])
    orca.quiet()
    d.type("meat,")
    wait_for(lambda: any("meat" in a for a in d.dump()["announcements"]), "the denied tag announced")
    d.set("maxTags", 3)
    orca.quiet()
    d.type("soy,")
    wait_for(lambda: any("soy" in a for a in d.dump()["announcements"]), "the tag over the limit announced")
    announcements = d.settle()["announcements"]
    check(len(announcements) >= 9, "fewer announcements than the steps above: %r" % announcements)
    # (Waited for: a sentence may come late when Qt's bridge and Orca stall each other, above.)
    try:
        wait_for(lambda: all(a in orca.spoken() for a in announcements), "Orca to speak every announcement", timeout=40)
    except Failure:
        pass
    spoken = orca.spoken()
    missing = [a for a in announcements if a not in spoken]
    check(not missing, "Orca did not speak %r; it said:\n%s" % (missing, spoken))


def orca_and_demo(ctx, qml):
    """Orca started in the test's session, then the demo, its field read by Orca."""
    if shutil.which("orca") is None:
        raise Skip("orca is not installed")
    ctx.env_only()
    orca = ctx.orca = Orca(ctx)
    d = ctx.start(qml=qml)
    time.sleep(1.0)  # Orca to see the application (see orca_speaks_every_announcement)
    d.key("shift+Tab")
    time.sleep(0.3)
    d.key("Tab")
    wait_for(lambda: "Add a tag" in orca.spoken(), "Orca to read the field when it gets focus")
    # (Orca let finish before typing: Qt 6.4's bridge and a busy Orca stall each other's keys,
    # see orca_speaks_every_announcement.)
    orca.quiet()
    return orca, d


@both
def orca_hears_suggestions_in_tagds_words(ctx, qml):
    """The suggestion list never takes the focus: Orca hears of it through tagd's sentence (the
    field/suggest result's announcement) when it appears, changes and goes; the library has no
    wording of its own for it."""
    orca, d = orca_and_demo(ctx, qml)
    rows = lambda: [n.get_name() for n in d.nodes("list item") if d.has_state(n, Atspi.StateType.SHOWING)]

    def hears(since, sentence):
        try:
            wait_for(lambda: sentence in orca.spoken()[since:], "Orca to say %r" % sentence)
        except Failure as e:
            raise Failure("%s; it said: %r" % (e, orca.spoken()[since:]))
        orca.quiet()
    heard = len(orca.spoken())
    d.type("spi")
    wait_for(lambda: rows() == ["spicy"], "the suggestion list with spicy")
    hears(heard, "One suggestion: spicy.")
    heard = len(orca.spoken())
    d.key("BackSpace", "BackSpace")
    shown = wait_for(lambda: (r := rows()) and len(r) >= 2 and r, "more suggestions for s")
    hears(heard, "%d suggestions; the first is %s." % (len(shown), shown[0]))
    heard = len(orca.spoken())
    d.type("zq")
    wait_for(lambda: rows() == [], "the list gone for szq")
    hears(heard, "No suggestions.")
    check(not any("suggestion" in a.lower() for a in d.dump()["announcements"]),
          "the suggestions' sentence is spoken, not an announcement of the field's state: %r" % d.dump()["announcements"])


# ---------------------------------------------------------------------------------------------
# The Qt Quick items (Tagd 1.0 QML module): the same user-visible behaviour, in tagd-qml-demo.



@test
def qml_commas_return_and_duplicates(ctx):
    d = ctx.start(qml=True)
    d.type("spicy, one pot,  gluten-free")
    d.key("Return")
    want = BASE + ["spicy", "one pot", "gluten-free"]
    wait_for(lambda: d.dump()["tags"] == want, "three typed tags")
    wait_for(lambda: d.text_of(d.field()) == "", "the text to empty after Return")
    wait_for(lambda: d.chips() == want, "the chips' Remove buttons through AT-SPI")
    d.type("VEGAN,")
    dump = wait_for(lambda: (x := d.dump())["dropped"] and x, "the duplicate to be dropped")
    check(dump["dropped"][-1] == {"text": "VEGAN", "reason": "Duplicate", "index": 0}, "tagDropped: %r" % dump["dropped"])
    check(dump["tags"] == want, "a duplicate changed the tags")
    sentence = dump["announcement"]
    check("VEGAN" in sentence and "vegan" in sentence, "tagd's sentence for the duplicate: %r" % sentence)
    check(dump["announcements"][-1] == sentence, "announced() did not carry the sentence: %r" % dump["announcements"])



@test
def qml_removal_by_click_and_backspace(ctx):
    d = ctx.start(qml=True)
    d.click(d.node("push button", "Remove dinner"))
    wait_for(lambda: d.dump()["tags"] == ["vegan", "weeknight"], "dinner removed by its button")
    wait_for(lambda: d.chips() == ["vegan", "weeknight"], "dinner gone from the AT-SPI tree")
    check("dinner" in d.dump()["announcement"], "no announcement for the removal: %r" % d.dump()["announcement"])
    wait_for(lambda: d.has_state(d.field(), Atspi.StateType.FOCUSED), "the focus back in the text after the click")
    d.type("ab")
    d.key("BackSpace", "BackSpace", "BackSpace")
    wait_for(lambda: d.dump()["tags"] == ["vegan"], "BackSpace on an empty text to remove the last tag")
    check(d.dump()["draft"] == "", "the draft is not empty")
    d.set("backspaceMode", 1)  # TagEdit.Select
    d.key("BackSpace")
    wait_for(lambda: d.dump()["selected"] == 0, "BackSpace on an empty text to select the last chip (backspaceMode Select)")
    check(d.dump()["tags"] == ["vegan"], "backspaceMode Select removed a tag")


@test
def qml_chip_keys_select_move_edit_remove_undo(ctx):
    d = ctx.start(qml=True)
    d.key("Left")
    wait_for(lambda: d.dump()["selected"] == 2, "Left at the start of the draft to select the last chip")
    d.key("Left")
    wait_for(lambda: d.dump()["selected"] == 1, "Left to select the previous chip")
    d.key("Right")
    wait_for(lambda: d.dump()["selected"] == 2, "Right to select the next chip")
    d.key("alt+Left")
    wait_for(lambda: d.dump()["tags"] == ["vegan", "weeknight", "dinner"], "Alt+Left to move the chip")
    d.key("alt+Right")
    wait_for(lambda: d.dump()["tags"] == BASE, "Alt+Right to move it back")
    d.key("Return")
    chip_editor(d, "weeknight")
    d.key("End")
    d.type("s")
    d.key("Return")
    wait_for(lambda: d.dump()["tags"] == ["vegan", "dinner", "weeknights"], "the edited tag committed in place")
    wait_for(lambda: d.dump()["selected"] == 2, "the edited chip still selected")
    d.key("F2")
    chip_editor(d, "weeknights")
    d.key("Return")
    wait_for(lambda: not d.nodes("text", "Edit weeknights"), "Return with the text unchanged to end the edit")
    check(d.dump()["tags"] == ["vegan", "dinner", "weeknights"], "an unchanged edit changed the tags")
    d.key("Left", "Delete")
    wait_for(lambda: d.dump()["tags"] == ["vegan", "weeknights"], "Delete to remove the selected chip")
    d.key("ctrl+z")
    wait_for(lambda: d.dump()["tags"] == ["vegan", "dinner", "weeknights"], "Ctrl+Z to undo the removal")
    wait_for(lambda: d.dump()["canRedo"], "canRedo after undo")
    d.key("ctrl+shift+z")
    wait_for(lambda: d.dump()["tags"] == ["vegan", "weeknights"], "Ctrl+Shift+Z to redo it")
    wait_for(lambda: d.chips() == ["vegan", "weeknights"], "AT-SPI chips after redo")


@test
def qml_tab_takes_the_best_suggestion(ctx):
    d = ctx.start(qml=True)
    d.type("sp")
    items = wait_for(lambda: [n.get_name() for n in d.nodes("list item")] or None, "the suggestion list")
    check(items[0] == "spicy", "best suggestion for 'sp': %r" % items)
    d.key("Tab")
    wait_for(lambda: d.dump()["tags"] == BASE + ["spicy"], "Tab to take the best suggestion")
    wait_for(lambda: d.text_of(d.field()) == "", "the draft to empty")
    check(d.has_state(d.field(), Atspi.StateType.FOCUSED), "Tab moved focus out of the field")
    d.type("o")
    items = wait_for(lambda: (x := [n.get_name() for n in d.nodes("list item")]) and len(x) >= 2 and x,
                     "two or more suggestions for 'o'")
    d.key("Down", "Down", "Return")
    wait_for(lambda: d.dump()["tags"] == BASE + ["spicy", items[1]], "Down and Return to take the second suggestion")



@test
def qml_wraps_at_two_widths(ctx):
    d = ctx.start(qml=True)
    d.type("spicy,gluten-free,30 minutes,one pot,")
    wait_for(lambda: len(d.chips()) == 7, "seven chips")

    def rows():
        return sorted({d.extents(d.node("push button", "Remove " + t)).y for t in d.chips()})

    d.xdotool("windowsize", "--sync", d.window, "1100", "500")
    wait_for(lambda: len(rows()) == 1, "one line of chips at 1100 px")
    one = d.extents(d.field())
    d.xdotool("windowsize", "--sync", d.window, "360", "500")
    wait_for(lambda: len(rows()) >= 3, "three or more lines of chips at 360 px")
    narrow = d.extents(d.field())
    check(narrow.y > one.y, "the text did not move down when the chips wrapped")
    for t in d.chips():
        e = d.extents(d.node("push button", "Remove " + t))
        check(e.x + e.width <= narrow.x + 360, "chip %s sticks out of the narrow window" % t)
    d.type("zz")
    wait_for(lambda: d.text_of(d.field()) == "zz", "typing into the wrapped entry")


@test
def qml_cloud_selection_checked_and_merged(ctx):
    d = ctx.start(qml=True)
    d.command("page 1")
    buttons = wait_for(lambda: (b := [d.node("check box", t) for t in CLOUD if d.node("check box", t)])
                       and len(b) == 10 and b, "ten cloud tags as check boxes")
    wait_for(lambda: d.has_state(d.node("check box", "SwiftUI"), Atspi.StateType.CHECKED), "SwiftUI checked")
    check(not d.has_state(buttons[6], Atspi.StateType.CHECKED), "Charts is checked")
    d.click(buttons[6])
    wait_for(lambda: d.dump()["selection"] == ["SwiftUI", "Charts"], "Charts selected by a click")
    wait_for(lambda: d.has_state(d.node("check box", "Charts"), Atspi.StateType.CHECKED), "Charts checked in AT-SPI")
    d.key("space")  # the clicked tag has focus: Space toggles it back
    wait_for(lambda: d.dump()["selection"] == ["SwiftUI"], "Space to deselect Charts")
    wait_for(lambda: not d.has_state(d.node("check box", "Charts"), Atspi.StateType.CHECKED), "Charts unchecked")
    wait_for(lambda: len(d.dump()["groups"]) == 10, "at spacing 18 every tag its own group")
    d.click(d.node("check box", "Tight spacing"))
    wait_for(lambda: d.dump()["spacing"] == 3 and not d.dump()["animating"], "the spacing animation to 3 to end")
    groups = d.dump()["groups"]
    check(len(groups) < 10 and sorted(i for g in groups for i in g) == list(range(10)),
          "at spacing 3 close tags share a merge group: %r" % groups)
    ctx.shot(d, "qml-interests-tight.png")


@test
def qml_announcements_reach_atspi(ctx):
    """The sentence is an accessible-description change on the focused TextInput, with the
    sentence as the event's value: what Orca 43 speaks (see the Orca test of the widget)."""
    d = ctx.start(qml=True)
    heard = []

    def on_event(event):
        if isinstance(event.any_data, str) and event.any_data:
            heard.append((event.source.get_role_name(), event.any_data))
    listener = Atspi.EventListener.new(on_event)
    listener.register("object:property-change:accessible-description")
    try:
        d.type("dinner,")
        sentence = wait_for(lambda: d.dump()["dropped"] and d.dump()["announcement"], "the duplicate's sentence")
        ctx_main = GLib.MainContext.default()

        def got():
            while ctx_main.iteration(False):
                pass
            return ("text", sentence) in heard
        wait_for(got, "the sentence %r as an AT-SPI event from the text (heard %r)" % (sentence, heard))
    finally:
        listener.deregister("object:property-change:accessible-description")
    ctx.shot(d, "qml-recipe-tags.png")



# ---------------------------------------------------------------------------------------------
# Issue 35: every refusal seen, no edit or setting deletes a tag, typing lands where the user
# looks, right to left.


def refusal_message(d):
    """The sentence shown under the field: a showing label between the field's text and the
    "Suggested" heading below the entry (the status line at the window's bottom is not it)."""
    field = d.extents(d.field())
    below = d.extents(d.nodes("label", "Suggested")[0]) if d.nodes("label", "Suggested") else None
    out = []
    for n in d.nodes("label"):
        if not d.has_state(n, Atspi.StateType.SHOWING) or not n.get_name():
            continue
        e = d.extents(n)
        if e.y >= field.y + field.height - 2 and (below is None or e.y + e.height <= below.y + 2) and e.height > 4:
            out.append((n.get_name(), e))
    return out


@both
def a_refusal_is_shown_under_the_field(ctx, qml):
    d = ctx.start(qml=qml)
    d.set("denied", ["meat"])
    time.sleep(0.3)
    d.type("meat,")
    dump = wait_for(lambda: (x := d.dump())["dropped"] and x, "meat refused")
    sentence = dump["announcements"][-1]
    check("meat" in sentence, "tagd's sentence for the refusal: %r" % sentence)
    shown = wait_for(lambda: refusal_message(d), "a message under the field")
    check(shown[0][0] == sentence, "the message under the field says %r, tagd said %r" % (shown[0][0], sentence))
    e = shown[0][1]
    win = d.extents(d.nodes("frame")[0])
    check(e.width > 20 and e.x >= win.x and e.x + e.width <= win.x + win.width, "the message is not inside the window: %r"
          % ((e.x, e.y, e.width, e.height),))
    d.type("x")
    wait_for(lambda: not refusal_message(d), "the message to go once the user types again")


def chip_editor(d, tag):
    """The text that edits chip `tag` in place, focused and holding the tag's text."""
    name = "Edit " + tag
    try:
        return wait_for(lambda: (e := d.node("text", name)) and d.has_state(e, Atspi.StateType.FOCUSED)
                        and d.text_of(e) == tag and e, "a focused %r text holding %r over the chip" % (name, tag))
    except Failure as e:
        raise Failure("%s; selected %r, focused %r" % (e, d.dump()["selected"], [
            (n.get_role_name(), n.get_name()) for n in d.nodes() if d.has_state(n, Atspi.StateType.FOCUSED)]))


@both
def editing_a_chip_in_place_keeps_it_when_refused(ctx, qml):
    """One mechanism in both toolkits (as GTK's): Return or F2 on a chip edits it in place and
    sends field/replaceTag. A refused text leaves the tag as it was with nothing to compensate
    (no undo step: canRedo stays false), the refusal is shown, and the draft is never touched."""
    d = ctx.start(qml=qml)
    d.set("maxTagLength", 12)
    time.sleep(0.5)
    d.type("pas")
    d.settle()
    for refused in ("vegan", "a-very-long-tag-indeed"):
        if d.dump()["selected"] != 1:
            if d.dump()["selected"] == -1:
                d.key("Home", "Left")
            wait_for(lambda: d.dump()["selected"] in (1, 2), "a chip selected")
            if d.dump()["selected"] == 2:
                d.key("Left")
            wait_for(lambda: d.dump()["selected"] == 1, "dinner selected")
        d.key("Return")
        editor = chip_editor(d, "dinner")
        check(d.dump()["tags"] == BASE, "editing took the tag out of the list: %r" % d.dump()["tags"])
        d.key("ctrl+a")
        d.type(refused)
        d.key("Return")
        wait_for(lambda: d.dump()["dropped"] and d.dump()["dropped"][-1]["text"] == refused, "%s refused" % refused)
        dump = d.settle("the refused edit to settle")
        check(dump["tags"] == BASE, "editing dinner into %r (refused) changed the tags to %r" % (refused, dump["tags"]))
        check(not dump["canRedo"], "a step was undone to restore the chip (canRedo): the refusal needed compensating")
        wait_for(lambda: d.chips() == BASE, "every chip in AT-SPI (%r)" % d.chips())
        wait_for(lambda: refusal_message(d), "the refusal shown under the field")
        check(d.text_of(d.field()) == "pas", "the draft changed: %r" % d.text_of(d.field()))
    # Escape leaves the tag as it was; an accepted text replaces it where it stands.
    d.key("Return")
    chip_editor(d, "dinner")
    d.type("zzz")
    d.key("Escape")
    wait_for(lambda: not d.nodes("text", "Edit dinner"), "Escape to end the edit")
    check(d.settle()["tags"] == BASE, "Escape changed the tags")
    d.key("F2")
    chip_editor(d, "dinner")
    d.key("ctrl+a")
    d.type("supper")
    d.key("Return")
    wait_for(lambda: d.dump()["tags"] == ["vegan", "supper", "weeknight"], "dinner replaced by supper in place")
    wait_for(lambda: d.chips() == ["vegan", "supper", "weeknight"], "the chips in AT-SPI")
    check(d.text_of(d.field()) == "pas", "the draft changed: %r" % d.text_of(d.field()))
    check(d.dump()["canUndo"], "the replacement is not a step to undo")


@both
def end_and_escape_type_at_the_end_of_the_draft(ctx, qml):
    d = ctx.start(qml=qml)
    d.type("pasta")
    d.settle()
    for leave, letter in (("End", "q"), ("Escape", "r")):
        d.key("Home")
        d.key("Left")
        wait_for(lambda: d.dump()["selected"] == 2, "Left at the draft's start to select the last chip")
        d.key(leave)
        wait_for(lambda: d.dump()["selected"] == -1, "%s to leave the chips" % leave)
        d.type(letter)
        want = "pasta" + ("q" if letter == "q" else "qr")
        wait_for(lambda: d.text_of(d.field()) == want, "%s then typing to give %r (got %r)" % (leave, want, d.text_of(d.field())))


@both
def right_to_left_mirrors_the_chips_and_the_cloud(ctx, qml):
    d = ctx.start(qml=qml, extra=["--rtl"])
    removes = [d.extents(d.node("push button", "Remove " + t)) for t in BASE]
    xs = [e.x for e in removes]
    check(xs[0] > xs[1] > xs[2], "in right to left the first chip is the right-most: Remove buttons at x %r" % xs)
    field = d.extents(d.field())
    check(field.x + field.width <= xs[2] + 2, "the text is not left of the last chip: text x %d..%d, chip at %d"
          % (field.x, field.x + field.width, xs[2]))
    for t, r in zip(BASE, removes):
        chip = d.extents(d.node("filler", t))
        check(chip.x <= r.x and r.x + r.width < chip.x + chip.width / 2,
              "%s's Remove button is not on the chip's left: chip x %d..%d, button x %d..%d"
              % (t, chip.x, chip.x + chip.width, r.x, r.x + r.width))
    d.type("spicy,")
    wait_for(lambda: d.chips() == BASE + ["spicy"], "a chip added in right to left")
    wait_for(lambda: d.extents(d.node("push button", "Remove spicy")).x < d.extents(d.node("push button", "Remove weeknight")).x,
             "the new chip placed left of the one before it")
    d.command("page 1")
    boxes = wait_for(lambda: (b := [d.node("check box", t) for t in CLOUD[:2]]) and all(b) and b, "the cloud")
    wait_for(lambda: d.extents(boxes[0]).x > d.extents(boxes[1]).x,
             "the cloud's first tag right of the second in right to left")


@both
def german_session_translates_the_library(ctx, qml):
    """The library's own words (the chips' "Remove <tag>") in a German session: tr()/qsTr()
    with the German catalogue built in (i18n/tagdqt_de.ts)."""
    d = ctx.start(qml=qml, env={"LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8", "LANGUAGE": "de"})
    names = wait_for(lambda: (n := [b.get_name() for b in d.nodes("push button") if "vegan" in b.get_name()]) and n,
                     "vegan's remove button")
    check(names == ["vegan entfernen"], "vegan's remove button in a German session: %r" % names)


@both
def a_stricter_rule_keeps_existing_tags(ctx, qml):
    """maxTagLength 5 set at run time: dinner and weeknight stay (field/setOptions), flagged,
    outlined in the error colour, and tagd's sentence is shown and announced."""
    d = ctx.start(qml=qml)
    d.settle()
    d.set("maxTagLength", 5)
    time.sleep(0.5)
    dump = d.settle("the new rule to settle")
    check(dump["tags"] == BASE, "a stricter maxTagLength changed the tags to %r" % dump["tags"])
    check(dump["flagged"] == ["dinner", "weeknight"], "flagged: %r" % dump["flagged"])
    sentence = dump["announcements"][-1]
    check("dinner" in sentence and "weeknight" in sentence, "the sentence for the kept tags: %r" % sentence)
    shown = wait_for(lambda: refusal_message(d), "the sentence under the field")
    check(shown[0][0] == sentence, "under the field: %r, announced: %r" % (shown[0][0], sentence))
    wait_for(lambda: d.chips() == BASE, "every chip still in AT-SPI")
    time.sleep(0.3)
    for tag, outlined in (("vegan", False), ("weeknight", True)):
        e = d.extents(d.node("filler", tag))
        r, g, b = d.command("pixel %d %d" % (e.x + 1, e.y + e.height // 2))["rgb"]
        red = r > g + 60 and r > b + 40
        check(red == outlined, "%s's chip edge is %r: %s" % (tag, (r, g, b), "not outlined" if outlined else "outlined"))
    d.type("toolong,")
    wait_for(lambda: d.dump()["dropped"] and d.dump()["dropped"][-1]["reason"] == "TooLong", "a new long tag refused")
    check(d.settle()["tags"] == BASE, "the tags after the refusal: %r" % d.dump()["tags"])


@test
def the_readme_build_leaves_the_checkout_clean(ctx):
    """The README's Install steps configure a build directory that git ignores (or that lies
    outside the checkout), and nothing this test run built or wrote is untracked."""
    root = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
    with open(os.path.join(HERE, "..", "README.md")) as f:
        readme = f.read()
    install = readme[readme.index("## Install"):]
    line = next(l for l in install.splitlines() if l.startswith("cmake -S editors/qt -B "))
    args = line.split("#")[0].split()
    build = args[args.index("-B") + 1]
    path = os.path.normpath(os.path.join(root, build))
    existed = os.path.exists(path)
    argv = [a if not a.startswith("-DCMAKE_INSTALL_PREFIX=") else "-DCMAKE_INSTALL_PREFIX=" + os.path.join(ctx.tmp, "prefix")
            for a in args] + ["-DCMAKE_BUILD_TYPE=Debug"]
    try:
        out = subprocess.run(argv, cwd=root, capture_output=True, text=True)
        check(out.returncode == 0, "the README's %r failed:\n%s" % (line, out.stdout[-2000:] + out.stderr[-2000:]))
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=root,
                                capture_output=True, text=True).stdout
        untracked = [l for l in status.splitlines() if l.startswith("??")]
        check(not untracked, "untracked files in the checkout after the README's build and this test run: %r"
              % untracked[:10])
    finally:
        if not existed:
            shutil.rmtree(path, ignore_errors=True)


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    parts, i = [], 0
    while len(parts) < 4:  # P6, width, height, maxval
        while data[i:i + 1].isspace():
            i += 1
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        parts.append(data[i:j])
        i = j
    return int(parts[1]), int(parts[2]), data[i + 1:]


def grab(d, rect, name):
    """That part of the screen (logical coordinates), as a function of logical offsets inside it
    to (r, g, b) in device pixels, and the scale (device pixels per logical one)."""
    x, y, w, h = rect
    path = os.path.join(d.dir, name + ".ppm")
    check(d.command("grab %d %d %d %d %s" % (x, y, w, h, path))["ok"], "grabbing %s" % name)
    width, height, px = read_ppm(path)
    scale = width / w

    def at(lx, ly):
        X, Y = min(width - 1, max(0, int(lx * scale))), min(height - 1, max(0, int(ly * scale)))
        k = (Y * width + X) * 3
        return tuple(px[k:k + 3])
    at.scale, at.width, at.height = scale, width, height
    return at


def lum(c):
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def opacity(shown, tint, page):
    """How much of tint is blended over page in shown, on the channel where they differ most."""
    k = max(range(3), key=lambda i: abs(tint[i] - page[i]))
    return (shown[k] - page[k]) / (tint[k] - page[k])


TEAL = (48, 176, 199)


def seed_design(ctx, extra=(), env=None, dark=False, qml=False):
    d = ctx.start(extra=list(extra), env=env, qml=qml)
    wrong = []  # every element that differs from the seed is reported, not only the first

    def check(cond, message):
        if not cond:
            wrong.append(message)
    time.sleep(0.5)
    d.settle()
    rects = d.command("rects")
    # The field: 14-point corners, a faint fill, a 2-point teal border while it has focus.
    ex, ey, ew, eh = rects["entry"]
    at = grab(d, (ex - 4, ey - 4, ew + 8, eh + 8), "entry")
    page = at(1, 4 + eh / 2)
    corner = at(4 + 0.25 * 14, 4 + 0.25 * 14)
    check(max(abs(a - b) for a, b in zip(corner, page)) <= 8,
          "the field's corner is not round by 14 points: %r at a quarter radius in, the page is %r" % (corner, page))
    inside = at(4 + 0.6 * 14, 4 + 0.6 * 14)
    check(inside != page, "the field has no fill or edge at 0.6 of its radius in: %r" % (inside,))
    row = [at(4 + i / at.scale, 4 + eh / 2) for i in range(int(6 * at.scale))]
    teal = [c for c in row if c[2] > c[0] + 60 and c[1] > c[0] + 60 and abs(c[1] - c[2]) < 40]
    check(abs(len(teal) - 2 * at.scale) <= 1.01,
          "the focus border is not 2 points of teal: %d teal device pixels at scale %g along %r" % (len(teal), at.scale, row))
    tx, ty, tw, th = rects["text"]  # the text, empty but for the placeholder: mostly the field's fill
    samples = [at(4 + (tx - ex) + i, 4 + (ty - ey) + th * f) for i in range(2, tw - 2, 2) for f in (0.15, 0.5, 0.85)]
    fill = max(set(samples), key=samples.count)
    step = (lum(page) - lum(fill)) * (-1 if dark else 1)
    check(2 <= step <= 30, "the field's fill is not a faint shade toward the text over the page: %r on %r" % (fill, page))
    # Chips: teal at 16 % over the field.
    for tag, (cx, cy, cw, ch) in rects["chips"][:1]:
        at = grab(d, (cx, cy, cw, ch), "chip")
        c = at(ch * 0.22, ch * 0.5)
        a = opacity(c, TEAL, fill)
        check(abs(a - 0.16) <= 0.06 and c[1] - c[0] >= 8 and c[2] - c[0] >= 8,
              "%s's chip is not teal at 0.16 over the field's fill %r: %r (%.2f)" % (tag, fill, c, a))
    # The subtitle: the text colour at 60 %, not full black or white.
    sx, sy, sw, sh = rects["subtitle"]
    at = grab(d, (sx, sy, sw, sh), "subtitle")
    bg = at(0, 0)
    ink = max((at(i / at.scale, j / at.scale) for i in range(0, at.width, 1) for j in range(0, at.height, 2)),
              key=lambda c: abs(lum(c) - lum(bg)))
    check(0.45 <= abs(lum(ink) - lum(bg)) / (255 - lum(bg) if dark else lum(bg)) <= 0.75,
          "the subtitle's ink %r on %r is not the text colour at about 60 %%" % (ink, bg))
    # The interests page: dark indigo at the top, black at the bottom.
    d.command("page 1")
    time.sleep(0.5)
    wait_for(lambda: len(d.dump()["groups"]) == 10, "the cloud laid out")
    d.settle()
    rects = d.command("rects")
    px, py, pw, ph = rects["interests"]
    at = grab(d, (px, py, pw, ph), "interests")
    top, bottom = at(1, 1), at(1, ph - 2)
    check(top[2] > top[0] + 20 and top[2] > top[1] + 20 and 40 <= top[2] <= 140,
          "the page's top corner is not dark indigo: %r" % (top,))
    check(max(bottom) <= 16, "the page's bottom corner is not black: %r" % (bottom,))
    # An unselected tag reads at the unselected opacity (0.3), with one outline: inside its
    # frame as in the glass around it.
    tints = dict(zip(CLOUD, [(10, 132, 255), (255, 55, 95), (255, 159, 10), (64, 200, 224), (191, 90, 242),
                             (48, 209, 88), (255, 69, 58), (94, 92, 230), (102, 212, 207), (255, 214, 10)]))
    frames = dict((t, r) for t, r in rects["tags"])
    tx, ty, tw, th = frames["Charts"]
    at = grab(d, (tx - 10, ty - 10, tw + 20, th + 20), "charts")
    behind = at(10 + tw / 2, 1)
    inner = opacity(at(10 + 4, 10 + th * 0.65), tints["Charts"], behind)
    halo = opacity(at(10 - 2.5, 10 + th * 0.65), tints["Charts"], behind)
    check(abs(inner - 0.3) <= 0.08, "Charts (unselected) reads at %.2f, not 0.3" % inner)
    check(abs(inner - halo) <= 0.08, "Charts is %.2f inside its frame and %.2f in its glass: a double outline" % (inner, halo))
    # The Tight spacing switch above the cloud, not moving while the cloud animates.
    before = rects["switch"]
    cloud = rects["cloud"]
    check(before[1] + before[3] <= cloud[1], "the switch %r is not above the cloud %r" % (before, cloud))
    sx, sy, sw, sh = before  # logical; the pointer moves in device pixels
    dpr = rects["dpr"]
    d.xdotool("mousemove", "--sync", str(int((sx + sw - 20) * dpr)), str(int((sy + sh / 2) * dpr)))
    d.xdotool("click", "1")
    seen, overlaps = [], []
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        now = d.command("rects")
        seen.append(now["switch"])
        # No two tags' labels overlap at any moment of the animation.
        tags = now["tags"]
        for i in range(len(tags)):
            for j in range(i + 1, len(tags)):
                (a, (ax, ay, aw, ah)), (b, (bx, by, bw, bh)) = tags[i], tags[j]
                if min(ax + aw, bx + bw) - max(ax, bx) > 1 and min(ay + ah, by + bh) - max(ay, by) > 1:
                    overlaps.append((a, b))
        if not d.dump()["animating"] and d.dump()["spacing"] == 3:
            break
    check(d.dump()["spacing"] == 3, "a click on the switch did not tighten the cloud")
    seen.append(d.command("rects")["switch"])
    check(len(seen) >= 4, "fewer than three looks at the animation: %r" % seen)
    check(all(r == before for r in seen), "the switch moved while the cloud animated: %r -> %r"
          % (before, sorted(set(tuple(r) for r in seen))))
    check(not overlaps, "tags overlapped while the cloud animated: %r" % sorted(set(overlaps)))
    if wrong:
        raise Failure("%d differences from the seed:\n     - %s" % (len(wrong), "\n     - ".join(wrong)))
    return d


def ink_on_screen(d, rect, name):
    """The ink of the text inside `rect` (logical) on screen, in device pixels: each pixel's
    distance from its row's background (the row's median) over the text's full contrast, summed."""
    at = grab(d, rect, name)
    rows = [[lum(at(X / at.scale, Y / at.scale)) for X in range(at.width)] for Y in range(at.height)]
    offsets = [[abs(v - sorted(r)[len(r) // 2]) for v in r] for r in rows]
    contrast = max(max(o) for o in offsets)
    return sum(min(1.0, v / contrast) for o in offsets for v in o) if contrast > 40 else 0.0


@both
def titles_are_semibold_against_a_regular_rendering(ctx, qml):
    """The seed's titles are semibold (bold where the font has no semibold): the page's title
    and an unselected cloud tag's title carry clearly more ink on screen than the same text in
    the same font at regular weight (the demo draws both references off screen)."""
    d = ctx.start(qml=qml)
    d.command("page 1")
    wait_for(lambda: len(d.dump()["groups"]) == 10, "the cloud laid out")
    time.sleep(0.5)
    d.settle()
    rects = d.command("rects")
    frames = dict((t, r) for t, r in rects["tags"])
    tx, ty, tw, th = frames["Charts"]
    shown = {"Charts": (ink_on_screen(d, (tx + 2, ty + 2, tw - 4, th - 4), "charts-title"), "tag"),
             "Pick your interests": (ink_on_screen(d, rects["interestsTitle"], "interests-title"), "heading")}
    report = []
    for text, (ink, which) in shown.items():
        regular = d.command("ink %s 400 %s" % (which, text))
        semibold = d.command("ink %s 600 %s" % (which, text))
        report.append((text, round(ink), round(regular["ink"]), round(semibold["ink"]), semibold["styleName"]))
        check(semibold["ink"] > regular["ink"] * 1.1, "the font has no heavier face than regular: %r" % report)
        check(ink >= (regular["ink"] + semibold["ink"]) / 2,
              "%r is drawn at regular weight: its ink %.0f, regular %.0f, semibold %.0f (%r)"
              % (text, ink, regular["ink"], semibold["ink"], report))


@both
def seed_design_light(ctx, qml):
    seed_design(ctx, qml=qml)


@both
def seed_design_dark_at_twice_the_scale(ctx, qml):
    seed_design(ctx, extra=["--dark"], env={"QT_SCALE_FACTOR": "2"}, dark=True, qml=qml)


@both
def seed_design_right_to_left(ctx, qml):
    seed_design(ctx, extra=["--rtl"], qml=qml)


@test
def every_property_notifies(ctx):
    """Every Q_PROPERTY of the widgets and the Connection has a NOTIFY signal (QML bindings and
    Qt Designer rely on it), emitted when the property changes."""
    d = ctx.start()
    props = d.command("props")
    check(not props["missing"], "properties without NOTIFY: %r" % props["missing"])
    for target, name, value in (("set", "separators", [",", ";"]), ("set", "maxTags", 10), ("set", "maxTagLength", 30),
                                ("set", "caseSensitive", True), ("set", "transform", "Lowercase"),
                                ("set", "pattern", ".+"), ("set", "denied", ["meat"]),
                                ("set", "allowed", BASE + ["x"]), ("set", "allowListEnabled", False),
                                ("set", "suggestions", ["a", "b"]), ("set", "backspaceMode", "Select"),
                                ("set", "commitOnBlur", True), ("set", "history", 50),
                                ("cloud", "mergeDistance", 12), ("cloud", "selectedOpacity", 0.9),
                                ("cloud", "unselectedOpacity", 0.25), ("cloud", "animated", False)):
        d.set(name, value, target=target)
        signal = ("Tagd::TagEdit." if target == "set" else "Tagd::TagCloud.") + name + "Changed"
        check(signal in d.command("props")["notified"], "setting %s emitted no %s" % (name, signal))
    d.settle()


class Skip(Exception):
    pass


# ---------------------------------------------------------------------------------------------

class Context:
    def __init__(self, args):
        self.tagd = args.tagd
        self.demo = args.demo
        self.qml_demo = args.qml_demo
        self.shots = args.shots
        self.tmp = tempfile.mkdtemp(prefix="tagd-qt-tests-")
        self.demos = []
        self.display = None
        self.orca = None

    def env_only(self):
        if self.display is None:
            self.display = Display()
        self._env()

    def start(self, **kw):
        self.env_only()
        d = Demo(self, **kw)
        self.demos.append(d)
        return d

    def _env(self):
        self.env = dict(os.environ)
        self.env.update({"DISPLAY": self.display.name, "QT_QPA_PLATFORM": "xcb",
                         "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1", "QT_ACCESSIBILITY": "1",
                         "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "XDG_CONFIG_HOME": os.path.join(self.tmp, "config"),
                         "QT_QPA_PLATFORMTHEME": ""})
        self.env.pop("WAYLAND_DISPLAY", None)

    def shot(self, d, name, screen=False):
        if not self.shots:
            return
        os.makedirs(self.shots, exist_ok=True)
        path = os.path.join(self.shots, name)
        check(d.command("shot " + path)["ok"], "the screenshot %s failed" % name)

    def finish(self):
        for d in self.demos:
            d.stop()
        self.demos = []
        if self.orca:
            self.orca.stop()
            self.orca = None
        if self.display:
            self.display.stop()
            self.display = None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tagd", required=True)
    parser.add_argument("--demo", required=True)
    parser.add_argument("--qml-demo", help="the Qt Quick demo (tagd-qml-demo): runs the qml_ tests")
    parser.add_argument("--shots")
    parser.add_argument("-k", dest="only")
    args = parser.parse_args()
    passed = failed = skipped = 0
    for fn in TESTS:
        if args.only and args.only not in fn.__name__:
            continue
        ctx = Context(args)
        start = time.monotonic()
        try:
            fn(ctx)
            for d in ctx.demos:
                bad = [line for line in d.stderr_text().splitlines()
                       if line.startswith(("QWARN", "Warning", "tagd:", "qt.", "QObject")) or "failed" in line]
                check(not bad, "the demo printed warnings:\n" + "\n".join(bad))
            passed += 1
            print("ok   %s (%.1f s)" % (fn.__name__, time.monotonic() - start), flush=True)
        except Skip as e:
            skipped += 1
            print("skip %s: %s" % (fn.__name__, e), flush=True)
        except Exception as e:  # noqa: BLE001 - a test's failure of any kind is reported
            failed += 1
            print("FAIL %s: %s" % (fn.__name__, e), flush=True)
            if not isinstance(e, Failure):
                traceback.print_exc()
            for d in ctx.demos:
                tail = d.stderr_text().strip().splitlines()[-15:]
                if tail:
                    print("     demo stderr:\n       " + "\n       ".join(tail), flush=True)
        finally:
            ctx.finish()
            shutil.rmtree(ctx.tmp, ignore_errors=True)
    if skipped and os.environ.get("CI"):
        # In CI everything a test needs is installed: a skip is something missing or unbuilt.
        print("skips count as failures in CI (CI is set)", flush=True)
        failed += skipped
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
