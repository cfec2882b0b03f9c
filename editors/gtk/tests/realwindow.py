#!/usr/bin/python3
"""Real-window tests for the GTK widgets: the demo under Xvfb, real keystrokes and clicks
(xdotool), results read back through AT-SPI and through the widgets' properties (the demo's
app.dump action). Run inside a D-Bus session (run-tests uses dbus-run-session).

Usage: realwindow.py --tagd PATH --demo PATH [--shots DIR] [-k NAME[,NAME...]]
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = ["vegan", "dinner", "weeknight"]
WAIT = 20.0  # upper bound for anything to happen; never a time that must be met


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
        except Failure:
            pass
        except gi.repository.GLib.GError:
            pass
        time.sleep(0.05)
    raise Failure("timed out waiting for " + what + (" (last: %r)" % (last,) if last is not None else ""))


# ---------------------------------------------------------------------------------------------
# The X server


class Display:
    """A private Xvfb on a display number nobody else uses. X clients try the abstract socket
    @/tmp/.X11-unix/X<n> first, which other sandboxes sharing the network namespace can hold
    even when this /tmp has no lock file for <n>; so the number is chosen at random among those
    with neither, not with -displayfd's "lowest free" (0, the most likely to be taken)."""

    def __init__(self):
        import random
        with open("/proc/net/unix") as f:
            taken = f.read()
        while True:
            n = random.randint(100, 4000)
            if "/tmp/.X11-unix/X%d\n" % n in taken or os.path.exists("/tmp/.X%d-lock" % n):
                continue
            r, w = os.pipe()
            self.proc = subprocess.Popen(
                ["Xvfb", ":%d" % n, "-displayfd", str(w), "-screen", "0", "2048x1536x24", "-nolisten", "tcp"],
                pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            os.close(w)
            number = b""
            while not number.endswith(b"\n"):
                c = os.read(r, 1)
                if not c:
                    break
                number += c
            os.close(r)
            if number.strip() == str(n).encode():
                break
            self.proc.wait()  # lost a race for that number: try another
        self.name = ":%d" % n

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


# ---------------------------------------------------------------------------------------------
# The demo application


class Demo:
    def __init__(self, args, env, tagd, slow=False, animations=True, extra=(), restartable=False, orca=False,
                 run_demo=False, env_extra=None, dark=False, scale=1):
        self.dir = tempfile.mkdtemp(prefix="tagd-gtk-test-")
        self.env = dict(env)
        self.env.update(env_extra or {})
        self.env["XDG_CONFIG_HOME"] = os.path.join(self.dir, "config")
        os.makedirs(os.path.join(self.env["XDG_CONFIG_HOME"], "gtk-4.0"))
        with open(os.path.join(self.env["XDG_CONFIG_HOME"], "gtk-4.0", "settings.ini"), "w") as f:
            f.write("[Settings]\ngtk-enable-animations=%s\ngtk-application-prefer-dark-theme=%s\n" %
                    ("true" if animations else "false", "true" if dark else "false"))
        self.scale = scale
        if scale != 1:
            self.env["GDK_SCALE"] = str(scale)
        program = tagd
        if slow or restartable:
            self.env["TAGD_REAL"] = tagd
            program = os.path.join(HERE, "slow-tagd")
        if restartable:
            # tests/slow-tagd without delay; while this file exists a restart takes 1.5 s
            self.env["TAGD_DELAY"] = "0"
            self.gate = os.path.join(self.dir, "restart-delay")
            self.env["TAGD_START_DELAY_FILE"] = self.gate
        self.stderr_path = os.path.join(self.dir, "stderr.txt")
        self.stderr = open(self.stderr_path, "w")
        # run_demo: started as a developer does from the build tree, through ./run-demo (which
        # execs the demo, so the process is the demo's).
        launcher = os.path.join(HERE, "..", "run-demo") if run_demo else args.demo
        self.proc = subprocess.Popen([launcher, "--tagd", program] + list(extra), env=self.env,
                                     stdout=self.stderr, stderr=self.stderr)
        self.app = wait_for(self._find_app, "the demo in the AT-SPI tree")
        self.window = wait_for(self._find_window, "the demo's X window")
        wait_for(lambda: self.dump()["entry"]["tags"] == BASE and self.node("text", "Add a tag"),
                 "the field with its three tags")
        self.orca = Orca(self) if orca else None

    def _find_app(self):
        desktop = Atspi.get_desktop(0)
        for i in range(desktop.get_child_count()):
            app = desktop.get_child_at_index(i)
            if app is not None and app.get_process_id() == self.proc.pid:
                return app
        return None

    def _find_window(self):
        out = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(self.proc.pid), "--name", "Tags"],
                             env=self.env, capture_output=True, text=True).stdout.split()
        return out[0] if out else None

    def dump(self):
        path = os.path.join(self.dir, "dump.json")
        if os.path.exists(path):
            os.unlink(path)
        subprocess.run(["gdbus", "call", "--session", "--dest", "org.tagd.Demo",
                        "--object-path", "/org/tagd/Demo", "--method", "org.gtk.Actions.Activate",
                        "dump", "[<'%s'>]" % path, "{}"],
                       env=self.env, check=True, capture_output=True)
        with open(path) as f:
            return json.load(f)

    def set_entry(self, name, value):
        """Sets a property of the entry through the demo's app.set-entry action."""
        subprocess.run(["gdbus", "call", "--session", "--dest", "org.tagd.Demo",
                        "--object-path", "/org/tagd/Demo", "--method", "org.gtk.Actions.Activate",
                        "set-entry", "[<('%s', <%s>)>]" % (name, value), "{}"],
                       env=self.env, check=True, capture_output=True)

    # AT-SPI

    def nodes(self, role=None, name=None):
        found = []

        def walk(node):
            try:
                r, n = node.get_role_name(), node.get_name()
            except gi.repository.GLib.GError:
                return
            if (role is None or r == role) and (name is None or n == name):
                found.append(node)
            for i in range(node.get_child_count()):
                child = node.get_child_at_index(i)
                if child is not None:
                    walk(child)

        self.app.clear_cache()
        walk(self.app)
        return found

    def node(self, role, name):
        n = self.nodes(role, name)
        return n[0] if n else None

    def has_state(self, node, state):
        return node.get_state_set().contains(state)

    def text_of(self, node):
        return Atspi.Text.get_text(node, 0, Atspi.Text.get_character_count(node))

    def chips(self):
        """The tags as assistive technology sees them: the Remove buttons, in order."""
        return [n.get_name()[len("Remove "):] for n in self.nodes("push button")
                if n.get_name().startswith("Remove ")]

    def window_offset(self):
        """AT-SPI window coordinates are relative to the window without its CSD shadow."""
        frame = self.node("frame", "Tags").get_extents(Atspi.CoordType.WINDOW)
        geo = subprocess.run(["xdotool", "getwindowgeometry", "--shell", self.window], env=self.env,
                             capture_output=True, text=True).stdout
        values = dict(line.split("=") for line in geo.split())
        return ((int(values["WIDTH"]) - frame.width * self.scale) // 2 + int(values["X"]),
                (int(values["HEIGHT"]) - frame.height * self.scale) // 2 + int(values["Y"]))

    def click(self, node):
        e = node.get_extents(Atspi.CoordType.WINDOW)
        ox, oy = self.window_offset()
        self.xdotool("mousemove", str(ox + (e.x + e.width // 2) * self.scale),
                     str(oy + (e.y + e.height // 2) * self.scale), "click", "1")

    # input

    def xdotool(self, *args):
        subprocess.run(["xdotool"] + list(args), env=self.env, check=True)

    def focus(self):
        self.xdotool("windowfocus", "--sync", self.window)

    def type(self, text, delay=0):
        self.focus()
        self.xdotool("type", "--delay", str(delay), text)

    def key(self, *keys, delay=0):
        self.focus()
        self.xdotool("key", "--delay", str(delay), *keys)

    def screenshot(self, path):
        """The window as the screen shows it, popovers (their own X windows) included."""
        geo = subprocess.run(["xdotool", "getwindowgeometry", "--shell", self.window], env=self.env,
                             capture_output=True, text=True, check=True).stdout
        v = dict(line.split("=") for line in geo.split())
        subprocess.run(["import", "-window", "root", "-crop", "%sx%s+%s+%s" % (v["WIDTH"], v["HEIGHT"], v["X"], v["Y"]),
                        "+repage", path], env=self.env, check=True)

    def selected_chip(self):
        """The tag whose Remove button has the focus (a selected chip), else None."""
        for n in self.nodes("push button"):
            if n.get_name().startswith("Remove ") and self.has_state(n, Atspi.StateType.FOCUSED):
                return n.get_name()[len("Remove "):]
        return None

    def stop(self):
        if self.orca is not None:
            self.orca.stop()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.stderr.close()
        with open(self.stderr_path) as f:
            return f.read()


def settle(demo, want_tags, want_draft, announced_after=None):
    """Waits until the widget's tags property and its text show the expected state (and, given
    @announced_after, the announcement it held before the key: until tagd's reply has replaced
    it, since the widget moves a chip at once, before tagd answers)."""
    def done():
        d = demo.dump()
        return d if (d["entry"]["tags"] == want_tags and d["entry"]["draft"] == want_draft and
                     (announced_after is None or d["entry"]["announcement"] != announced_after)) else None
    try:
        return wait_for(done, "tags %r and draft %r" % (want_tags, want_draft))
    except Failure:
        d = demo.dump()
        raise Failure("expected tags %r, draft %r; have tags %r, draft %r" %
                      (want_tags, want_draft, d["entry"]["tags"], d["entry"]["draft"]))


def check_atspi_matches(demo, want_tags, want_draft):
    text = demo.node("text", "Add a tag")
    check(text is not None, "the field's text is in the AT-SPI tree, named by the prompt")
    wait_for(lambda: demo.chips() == want_tags, "AT-SPI Remove buttons %r" % (want_tags,))
    try:
        wait_for(lambda: demo.text_of(demo.node("text", "Add a tag")) == want_draft,
                 "AT-SPI text %r" % (want_draft,))
    except Failure as e:
        raise Failure("%s; AT-SPI text is %r" % (e, demo.text_of(demo.node("text", "Add a tag"))))


# ---------------------------------------------------------------------------------------------
# Tests. Each starts its own demo; every one fails if GTK or the library printed a warning.

TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


@test
def starts_on_recipe_page_with_focus_in_field(ctx):
    demo = ctx.demo()
    d = demo.dump()
    check(d["page"] == "recipe", "the Recipe tags page is shown first")
    check(d["suggestions"] == ["spicy", "gluten-free", "30 minutes", "one pot"], "all four suggestions shown")
    text = demo.node("text", "Add a tag")
    check(text is not None, "a text named by the prompt")
    # Keyboard focus is in the field: keys typed straight away land in its text.
    demo.type("k")
    settle(demo, BASE, "k")
    wait_for(lambda: demo.text_of(demo.node("text", "Add a tag")) == "k", "the key in the field's text")
    # Tab leaves the entry in one step (chips are not Tab stops); Shift+Tab comes back.
    demo.key("Tab")
    try:
        wait_for(lambda: demo.has_state(demo.node("push button", "Add spicy"), Atspi.StateType.FOCUSED),
                 "focus on the first suggestion after one Tab")
    except Failure as e:
        raise Failure("%s; focused: %r" % (e, [(n.get_role_name(), n.get_name()) for n in demo.nodes()
                                               if demo.has_state(n, Atspi.StateType.FOCUSED)]))
    demo.key("shift+Tab")
    demo.type("z")  # like a GtkEntry, focus by keyboard selects the text, so z replaces k
    settle(demo, BASE, "z")
    check(demo.chips() == BASE, "AT-SPI shows a Remove button per tag: %r" % demo.chips())
    for tag in BASE:
        check(demo.node("panel", tag) is not None, "a chip named %r" % tag)
    # The entry and the cloud (both created at start) share one tagd child.
    children = subprocess.run(["ps", "-o", "pid=,comm=", "--ppid", str(demo.proc.pid)],
                              capture_output=True, text=True).stdout.split("\n")
    tagds = [line for line in children if line.strip()]
    check(len(tagds) == 1 and int(tagds[0].split()[0]) == d["tagdPid"],
          "exactly one child process, the tagd both widgets use: %r" % tagds)
    tab = demo.node("page tab", "Recipe tags")
    check(tab is not None and demo.has_state(tab, Atspi.StateType.PRESSED), "the Recipe tags tab is selected")
    check(text is not None, "text present")


@test
def typing_commas_and_return_commit(ctx):
    demo = ctx.demo()
    demo.type("spicy,fresh herbs")
    settle(demo, BASE + ["spicy"], "fresh herbs")
    demo.key("Return")
    d = settle(demo, BASE + ["spicy", "fresh herbs"], "")
    check_atspi_matches(demo, BASE + ["spicy", "fresh herbs"], "")
    check(d["suggestions"] == ["gluten-free", "30 minutes", "one pot"], "the spicy suggestion is gone: %r" % d["suggestions"])
    check(demo.node("push button", "Add spicy") is None or
          not demo.has_state(demo.node("push button", "Add spicy"), Atspi.StateType.VISIBLE),
          "no visible Add spicy button in the AT-SPI tree")


@test
def duplicate_is_dropped_and_announced(ctx):
    demo = ctx.demo()
    demo.type("VEGAN,")
    d = settle(demo, BASE, "")
    want = "VEGAN is already a tag, as vegan."
    check(d["entry"]["announcement"] == want, "announcement property: %r" % d["entry"]["announcement"])
    # What Orca makes of it: orca_speaks_the_field_announcements_and_chips.
    check(d["entry"]["dropped"] == ["VEGAN|duplicate|" + want], "tag-dropped: %r" % d["entry"]["dropped"])
    check(demo.chips() == BASE, "no second vegan chip")


@test
def backspace_left_and_delete_remove_tags(ctx):
    demo = ctx.demo()
    demo.type("ab")
    settle(demo, BASE, "ab")
    demo.key("BackSpace", "BackSpace")  # edits the text: no tag removed
    settle(demo, BASE, "")
    demo.key("BackSpace")  # on the empty text: removes the last tag
    settle(demo, ["vegan", "dinner"], "")
    demo.key("Left", "Left")  # selects dinner, then vegan
    wait_for(lambda: demo.selected_chip() == "vegan" and demo.dump()["entry"]["selected"] == 0,
             "the vegan chip selected (its Remove button focused)")
    demo.key("Delete")
    settle(demo, ["dinner"], "")
    check_atspi_matches(demo, ["dinner"], "")
    demo.key("Right")  # past the last chip: back to the text
    demo.type("x,")
    settle(demo, ["dinner", "x"], "")


@test
def tags_property_and_options(ctx):
    demo = ctx.demo()
    demo.type("half")
    settle(demo, BASE, "half")
    demo.set_entry("tags", "['a', 'B', 'b', 'c']")  # tagd drops the caseless duplicate
    settle(demo, ["a", "B", "c"], "half")
    check_atspi_matches(demo, ["a", "B", "c"], "half")
    demo.key("ctrl+a", "BackSpace")
    settle(demo, ["a", "B", "c"], "")
    demo.set_entry("separators", "[';']")
    demo.type("x;y,")
    settle(demo, ["a", "B", "c", "x"], "y,")
    demo.key("BackSpace", "BackSpace")
    demo.set_entry("case-sensitive", "true")
    demo.type("b;")
    settle(demo, ["a", "B", "c", "x", "b"], "")
    demo.set_entry("max-tag-length", "int32 4")
    demo.type("long;longer;")
    d = settle(demo, ["a", "B", "c", "x", "b", "long"], "")
    check("longer" in d["entry"]["announcement"], "the too-long tag is announced: %r" % d["entry"]["announcement"])
    demo.set_entry("max-tags", "int32 7")
    demo.type("s7;s8;")
    d = settle(demo, ["a", "B", "c", "x", "b", "long", "s7"], "")
    check("s8" in d["entry"]["announcement"], "the eighth tag is refused: %r" % d["entry"]["announcement"])
    demo.set_entry("prompt", "'Add an ingredient'")
    wait_for(lambda: demo.node("text", "Add an ingredient"), "the text renamed after the new prompt")


@test
def clicking_remove_button_removes_that_tag(ctx):
    demo = ctx.demo()
    demo.click(demo.node("push button", "Remove dinner"))
    settle(demo, ["vegan", "weeknight"], "")
    check_atspi_matches(demo, ["vegan", "weeknight"], "")
    # A click on a chip's label selects the chip; Delete then removes it.
    demo.click(demo.node("label", "vegan"))
    wait_for(lambda: demo.selected_chip() == "vegan", "vegan selected")
    demo.key("Delete")
    settle(demo, ["weeknight"], "")
    check_atspi_matches(demo, ["weeknight"], "")


@test
def suggestion_button_adds_tag_and_disappears(ctx):
    demo = ctx.demo()
    demo.click(demo.node("push button", "Add gluten-free"))
    d = settle(demo, BASE + ["gluten-free"], "")
    check("gluten-free" not in d["suggestions"], "the gluten-free suggestion is hidden")
    wait_for(lambda: demo.chips() == BASE + ["gluten-free"], "a gluten-free chip")


@test
def paste_splits_into_tags(ctx):
    demo = ctx.demo()
    owner = subprocess.Popen(["/usr/bin/python3", os.path.join(HERE, "clipboard-owner.py"),
                              "lunch, quick\nVegan\n soup"], env=demo.env,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        check(owner.stdout.readline().strip() == "ready", "the clipboard owner started")
        demo.key("ctrl+v")
        d = settle(demo, BASE + ["lunch", "quick"], "soup")
        check("Vegan is already a tag" in d["entry"]["announcement"], "the pasted duplicate is announced: %r" % d["entry"]["announcement"])
    finally:
        owner.terminate()
        owner.wait()


@test
def fast_bursts_with_slow_tagd_lose_nothing(ctx):
    demo = ctx.demo(slow=True)
    # Full speed, while each reply is held back: the slow-typing result must come out.
    demo.type("alpha,beta,gamma,ALPHA,delta")
    demo.key(*(["BackSpace"] * 6))  # five delete "delta"; the sixth, on an empty draft, removes gamma
    demo.type("omega")
    want = BASE + ["alpha", "beta"]
    settle(demo, want, "omega")
    check_atspi_matches(demo, want, "omega")
    demo.type(",one,two,")
    demo.key("BackSpace")  # the draft is empty: removes two, even if "two," is still in the box
    demo.type("three")
    demo.key("Return")
    want = want + ["omega", "one", "three"]
    settle(demo, want, "")
    check_atspi_matches(demo, want, "")
    d = demo.dump()
    check(len(set(t.lower() for t in d["entry"]["tags"])) == len(d["entry"]["tags"]), "no tag twice")
    # Chips too, as a slow typist would see them: Left, Left selects "one"; Delete removes it
    # and selects the next chip, "three"; Delete removes that and selects the previous one,
    # "omega"; Backspace removes "omega".
    demo.key("Left", "Left", "Delete", "Delete")
    settle(demo, BASE + ["alpha", "beta", "omega"], "")
    demo.key("BackSpace")
    settle(demo, BASE + ["alpha", "beta"], "")
    check_atspi_matches(demo, BASE + ["alpha", "beta"], "")


@test
def tagd_restart_keeps_tags_and_draft(ctx):
    demo = ctx.demo()
    demo.type("soup,half")
    settle(demo, BASE + ["soup"], "half")
    first = demo.dump()["tagdPid"]
    check(first > 0, "a tagd child is running")
    os.kill(first, signal.SIGKILL)
    demo.type(" baked")  # typed while tagd is dead or restarting
    wait_for(lambda: demo.dump()["restarts"] >= 1 and demo.dump()["tagdPid"] not in (0, first),
             "a new tagd child")
    settle(demo, BASE + ["soup"], "half baked")
    demo.key("Return")
    settle(demo, BASE + ["soup", "half baked"], "")
    check_atspi_matches(demo, BASE + ["soup", "half baked"], "")
    # The cloud was re-opened too: it still answers toggles.
    demo.click(demo.node("page tab", "Pick your interests"))
    wait_for(lambda: demo.dump()["page"] == "interests", "the interests page")
    wait_for(lambda: demo.node("check box", "Layout").get_extents(Atspi.CoordType.WINDOW).width > 0,
             "the cloud laid out")
    demo.click(demo.node("check box", "Layout"))
    wait_for(lambda: demo.dump()["cloud"]["selection"] == ["SwiftUI", "Layout"], "Layout selected after the restart")


@test
def layout_wraps_at_two_widths(ctx):
    demo = ctx.demo()
    tags = BASE + ["spicy", "gluten free"]
    demo.xdotool("windowsize", demo.window, "800", "420")
    demo.type("spicy,gluten free,")
    settle(demo, tags, "")

    def rows():
        return sorted(set(demo.node("panel", t).get_extents(Atspi.CoordType.WINDOW).y for t in tags))

    def text_box():
        return demo.node("text", "Add a tag").get_extents(Atspi.CoordType.WINDOW)

    wide = wait_for(lambda: demo.dump()["entry"]["width"] > 700 and len(rows()) == 1 and rows(),
                    "one row of chips 800 px wide")
    wide_height = demo.dump()["entry"]["height"]
    wide_width = demo.dump()["entry"]["width"]
    check(text_box().y == wide[0], "the text shares the chips' line")
    check(text_box().x > demo.node("panel", "gluten free").get_extents(Atspi.CoordType.WINDOW).x,
          "the text comes after the last chip")
    demo.xdotool("windowsize", demo.window, "380", "420")
    try:
        narrow = wait_for(lambda: demo.dump()["entry"]["width"] < wide_width - 300 and len(rows()) >= 2 and rows(),
                          "chips wrapped onto more lines in a narrow window")
    except Failure as e:
        raise Failure("%s: entry %r, rows %r" % (e, demo.dump()["entry"], rows()))
    check(demo.dump()["entry"]["height"] > wide_height, "the entry grew taller when narrow")
    check(text_box().y >= narrow[-1], "the text is on the last line")
    demo.xdotool("windowsize", demo.window, "800", "420")
    wait_for(lambda: len(rows()) == 1, "back to one line when wide again")
    wait_for(lambda: demo.dump()["entry"]["height"] == wide_height, "the entry's height back")


@test
def right_to_left_mirrors_layout_and_arrows(ctx):
    demo = ctx.demo(extra=["--rtl"])

    def x(role, name):
        return demo.node(role, name).get_extents(Atspi.CoordType.WINDOW).x
    wait_for(lambda: x("panel", "vegan") > x("panel", "dinner") > x("panel", "weeknight") > x("text", "Add a tag"),
             "chips flowing right to left, the text on their left")
    demo.key("Right")  # towards the chips: selects the last one
    wait_for(lambda: demo.selected_chip() == "weeknight", "weeknight selected")
    demo.key("Delete")
    settle(demo, ["vegan", "dinner"], "")
    demo.click(demo.node("page tab", "Pick your interests"))
    wait_for(lambda: x("check box", "SwiftUI") > x("check box", "Animation") > 0, "the cloud mirrored")
    demo.click(demo.node("check box", "Tight spacing"))
    wait_for(lambda: demo.dump()["cloud"]["spacing"] == 3 and not demo.dump()["cloud"]["animating"], "tight")
    if ctx.shots:
        time.sleep(0.3)  # the switch's own slide; a picture, not an assertion
        demo.screenshot(os.path.join(ctx.shots, "rtl-interests-tight.png"))


def chip_sides(demo, tag):
    """(gap left of the chip's first child, gap right of its last, whether the Remove button is
    on the left): the children's AT-SPI extents against the chip's drawn edges, found along
    its middle line in a screenshot."""
    label = demo.node("label", tag).get_extents(Atspi.CoordType.WINDOW)
    button = demo.node("push button", "Remove " + tag).get_extents(Atspi.CoordType.WINDOW)
    pixel = window_pixels(demo, os.path.join(demo.dir, "chip.png"))
    y = label.y + label.height // 2
    text = demo.node("text", "Add a tag").get_extents(Atspi.CoordType.WINDOW)
    bg = pixel(text.x + text.width - 4, y)  # the field, at the far end of its text

    def chip(x):
        return max(abs(a - b) for a, b in zip(pixel(x, y), bg)) > 6
    left = right = label.x + label.width // 2
    while chip(left - 1):
        left -= 1
    while chip(right + 1):
        right += 1
    first, last = (button, label) if button.x < label.x else (label, button)
    return first.x - left, right + 1 - (last.x + last.width), button.x < label.x


@test
def right_to_left_mirrors_chip_padding(ctx):
    # In a right-to-left layout a chip is its left-to-right self mirrored: the Remove button
    # on its left, and the padding on each side swapped.
    demo = ctx.demo()
    ltr = chip_sides(demo, "dinner")
    demo.stop()
    demo = ctx.demo(extra=["--rtl"])
    wait_for(lambda: demo.node("panel", "vegan").get_extents(Atspi.CoordType.WINDOW).x >
             demo.node("panel", "dinner").get_extents(Atspi.CoordType.WINDOW).x, "the chips right to left")
    rtl = chip_sides(demo, "dinner")
    check(not ltr[2] and rtl[2], "the Remove button right of the label, left of it in RTL: %r %r" % (ltr, rtl))
    check(ltr[0] > ltr[1] + 4, "left to right, more room before the label than after the button: %r" % (ltr,))
    check(abs(rtl[0] - ltr[1]) <= 1 and abs(rtl[1] - ltr[0]) <= 1,
          "right to left, the same gaps swapped: %r against %r" % (rtl, ltr))


@test
def page_scrolls_when_tags_outgrow_the_window(ctx):
    # Once the tags are taller than the window, the page scrolls: to the field's text when the
    # focus comes back to it, and with the mouse wheel.
    demo = ctx.demo()
    demo.xdotool("windowsize", demo.window, "560", "320")
    frame = demo.node("frame", "Tags")
    wait_for(lambda: frame.get_extents(Atspi.CoordType.WINDOW).height <= 340, "the window 320 px tall")
    height = frame.get_extents(Atspi.CoordType.WINDOW).height
    tags = list(BASE)
    while demo.dump()["entry"]["height"] <= height:
        check(len(tags) < 200, "the tags outgrow the window: %r" % demo.dump()["entry"])
        more = ["tag%d" % i for i in range(len(tags), len(tags) + 20)]
        demo.type(",".join(more) + ",")
        tags += more
        settle(demo, tags, "")

    def y(role, name):
        return demo.node(role, name).get_extents(Atspi.CoordType.WINDOW).y
    heading = max(demo.nodes("label", "Recipe tags"), key=lambda n: n.get_extents(Atspi.CoordType.WINDOW).y)  # not the tab's
    top = heading.get_extents(Atspi.CoordType.WINDOW).y
    # Tab to the suggestion buttons below the field and back: the text is in view.
    demo.key("Tab")
    wait_for(lambda: demo.has_state(demo.node("push button", "Add spicy"), Atspi.StateType.FOCUSED), "the first suggestion")
    demo.key("shift+Tab")
    wait_for(lambda: demo.has_state(demo.node("text", "Add a tag"), Atspi.StateType.FOCUSED), "the focus back in the text")
    text = demo.node("text", "Add a tag")
    wait_for(lambda: 0 <= y("text", "Add a tag") and y("text", "Add a tag") + text.get_extents(Atspi.CoordType.WINDOW).height <= height,
             "the text in view, inside the window's %d px" % height)
    scrolled = heading.get_extents(Atspi.CoordType.WINDOW).y
    check(scrolled < top - 50, "the page scrolled: its heading from y %d to %d" % (top, scrolled))
    # The wheel, over the page, scrolls it back up.
    ox, oy = demo.window_offset()
    demo.xdotool("mousemove", str(ox + 12), str(oy + height // 2), "click", "--repeat", "20", "4")
    wait_for(lambda: heading.get_extents(Atspi.CoordType.WINDOW).y == top, "the wheel scrolled the page back to its top")


SEED_TITLES = ["SwiftUI", "Animation", "Layout", "Glass", "Gestures", "Symbols", "Charts", "Navigation",
               "Metal", "Widgets"]
# The seed's tints, as hues in degrees: blue, pink, orange, teal, purple, green, red, indigo,
# mint, yellow.
SEED_TINTS = ["#0a84ff", "#ff375f", "#ff9f0a", "#40c8e0", "#bf5af2", "#30d158", "#ff453a", "#5e5ce6",
              "#66d4cf", "#ffd60a"]


@test
def cloud_selection_and_accessibility(ctx):
    demo = ctx.demo()
    demo.click(demo.node("page tab", "Pick your interests"))
    wait_for(lambda: demo.dump()["page"] == "interests", "the interests page")
    boxes = [demo.node("check box", t) for t in SEED_TITLES]
    check(all(b is not None for b in boxes), "a check box per cloud tag, named by its title")
    check(demo.has_state(boxes[0], Atspi.StateType.CHECKED), "SwiftUI is checked (selected)")
    check(not any(demo.has_state(b, Atspi.StateType.CHECKED) for b in boxes[1:]), "the others are not")
    wait_for(lambda: demo.node("check box", "Glass").get_extents(Atspi.CoordType.WINDOW).width > 0, "laid out")
    demo.click(demo.node("check box", "Glass"))
    wait_for(lambda: demo.dump()["cloud"]["selection"] == ["SwiftUI", "Glass"], "Glass selected")
    wait_for(lambda: demo.has_state(demo.node("check box", "Glass"), Atspi.StateType.CHECKED), "Glass checked in AT-SPI")
    demo.click(demo.node("check box", "SwiftUI"))
    wait_for(lambda: demo.dump()["cloud"]["selection"] == ["Glass"], "SwiftUI unselected")
    wait_for(lambda: not demo.has_state(demo.node("check box", "SwiftUI"), Atspi.StateType.CHECKED),
             "SwiftUI not checked in AT-SPI")
    # Keyboard: the cloud is one Tab stop. From the Tight spacing switch (just before it), Tab
    # enters at the tag used last (SwiftUI); Right moves to Animation, Space toggles it; End
    # goes to Widgets; one Tab leaves the cloud.
    demo.key("shift+Tab")
    wait_for(lambda: demo.has_state(demo.node("check box", "Tight spacing"), Atspi.StateType.FOCUSED), "the switch focused")
    demo.key("Tab")
    wait_for(lambda: demo.has_state(demo.node("check box", "SwiftUI"), Atspi.StateType.FOCUSED), "SwiftUI focused by Tab")
    demo.key("Right", "space")
    wait_for(lambda: demo.dump()["cloud"]["selection"] == ["Animation", "Glass"], "Animation selected from the keyboard")
    wait_for(lambda: demo.has_state(demo.node("check box", "Animation"), Atspi.StateType.CHECKED), "Animation checked")
    demo.key("End")
    wait_for(lambda: demo.has_state(demo.node("check box", "Widgets"), Atspi.StateType.FOCUSED), "End: the last tag")
    demo.key("Tab")
    wait_for(lambda: not any(demo.has_state(demo.node("check box", t), Atspi.StateType.FOCUSED) for t in SEED_TITLES),
             "one Tab leaves the cloud")


def groups_of(d):
    return d["cloud"]["groups"]


@test
def tight_spacing_animates_and_merges_groups(ctx):
    demo = ctx.demo()
    demo.click(demo.node("page tab", "Pick your interests"))
    loose = wait_for(lambda: len(groups_of(demo.dump())) == 10 and groups_of(demo.dump()),
                     "the cloud laid out")
    check(len(set(loose)) == 10, "at spacing 18 no two tags merge: %r" % loose)
    swift = demo.node("check box", "Animation").get_extents(Atspi.CoordType.WINDOW).x
    demo.click(demo.node("check box", "Tight spacing"))
    wait_for(lambda: demo.dump()["cloud"]["animationRuns"] == 1 and not demo.dump()["cloud"]["animating"]
             and demo.dump()["cloud"]["spacing"] == 3, "the animation to run and end")
    tight = groups_of(demo.dump())
    end_x = demo.node("check box", "Animation").get_extents(Atspi.CoordType.WINDOW).x
    check(end_x < swift, "Animation moved left (%d -> %d)" % (swift, end_x))
    # Frames painted during the animation showed Animation on its way, strictly between the ends.
    xs = demo.dump()["cloud"]["animationXs"]
    start, end = max(xs), min(xs)
    between = [x for x in xs if end + 0.5 < x < start - 0.5]
    check(len(between) >= 2, "intermediate positions painted during the animation: %r" % xs)
    check(len(set(tight)) < 10, "at spacing 3 neighbours merge: %r" % tight)
    check(tight[0] == tight[1], "SwiftUI and Animation, 3 px apart on one line, are one shape: %r" % tight)
    if ctx.shots:
        demo.screenshot(os.path.join(ctx.shots, "interests-tight.png"))
    demo.click(demo.node("check box", "Tight spacing"))
    wait_for(lambda: len(set(groups_of(demo.dump()))) == 10 and not demo.dump()["cloud"]["animating"],
             "loose again: ten separate shapes")


@test
def tight_spacing_switch_stays_under_the_pointer(ctx):
    # The cloud's height changes while spacing animates; the Tight spacing switch does not move,
    # so a second click lands on it again.
    demo = ctx.demo()
    demo.click(demo.node("page tab", "Pick your interests"))
    wait_for(lambda: len(groups_of(demo.dump())) == 10, "the cloud laid out")
    switch = demo.node("check box", "Tight spacing")

    def where():
        e = switch.get_extents(Atspi.CoordType.WINDOW)
        return (e.x, e.y, e.width, e.height)
    before = where()
    cloud = demo.node("check box", "SwiftUI").get_parent()
    cloud_before = cloud.get_extents(Atspi.CoordType.WINDOW).height
    seen = set()
    demo.click(switch)

    def done():
        seen.add(where())
        d = demo.dump()["cloud"]
        return d["spacing"] == 3 and d["animationRuns"] == 1 and not d["animating"]
    wait_for(done, "the tight layout, animated")
    seen.add(where())
    cloud_after = cloud.get_extents(Atspi.CoordType.WINDOW).height
    check(cloud_after != cloud_before, "the cloud's height changed (%d -> %d)" % (cloud_before, cloud_after))
    check(seen == {before}, "the switch stayed at %r while the cloud changed: %r" % (before, sorted(seen)))
    ox, oy = demo.window_offset()
    demo.xdotool("mousemove", str(ox + before[0] + before[2] // 2), str(oy + before[1] + before[3] // 2), "click", "1")
    wait_for(lambda: demo.dump()["cloud"]["spacing"] == 18 and not demo.dump()["cloud"]["animating"],
             "loose again: the second click on the same place reached the switch")
    check(where() == before, "the switch back where it was: %r" % (where(),))


@test
def no_animation_when_animations_are_off(ctx):
    demo = ctx.demo(animations=False)
    demo.click(demo.node("page tab", "Pick your interests"))
    wait_for(lambda: len(groups_of(demo.dump())) == 10, "the cloud laid out")
    demo.click(demo.node("check box", "Tight spacing"))
    wait_for(lambda: demo.dump()["cloud"]["spacing"] == 3 and len(set(groups_of(demo.dump()))) < 10,
             "the tight layout")
    check(demo.dump()["cloud"]["animationRuns"] == 0, "no animation ran with gtk-enable-animations off")


def read_ppm(path):
    """The screenshot's pixels: (width, height, bytes RGB), through ImageMagick's PPM."""
    data = subprocess.run(["convert", path, "-depth", "8", "ppm:-"], capture_output=True, check=True).stdout
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        fields.append(data[start:pos])
    check(fields[0] == b"P6", "a binary PPM")
    return int(fields[1]), int(fields[2]), data[pos + 1:]


def rgb_of(hex_colour):
    return tuple(int(hex_colour[k:k + 2], 16) for k in (1, 3, 5))


def hue_of(rgb):
    import colorsys
    return colorsys.rgb_to_hsv(*(c / 255 for c in rgb))[0] * 360


def hue_distance(a, b):
    d = abs(a - b) % 360
    return min(d, 360 - d)


@test
def seed_demo_pages_and_screenshots(ctx):
    demo = ctx.demo()
    # The recipe page, as the seed's: heading, subtitle, the field, the Suggested capsules.
    check(demo.node("label", "Recipe tags") is not None, "the heading Recipe tags")
    check(demo.node("label", "Press return or type a comma to add one") is not None, "the seed's subtitle")
    check(demo.node("panel", "Recipe tags") is not None, "the entry is named by its heading")
    check([n.get_name() for n in demo.nodes("push button") if n.get_name().startswith("Add ")] ==
          ["Add spicy", "Add gluten-free", "Add 30 minutes", "Add one pot"], "the four suggestion buttons")
    demo.type("spicy,")
    settle(demo, BASE + ["spicy"], "")
    demo.type("one p")
    settle(demo, BASE + ["spicy"], "one p")
    wait_for(lambda: popover_rows(demo) == ["one pot"], "the suggestion popover")
    out = ctx.shots or demo.dir
    recipe = os.path.join(out, "recipe-tags.png")
    demo.screenshot(recipe)
    demo.key("Escape")
    # The interests page: the seed's ten tags, in order, SwiftUI selected.
    demo.click(demo.node("page tab", "Pick your interests"))
    wait_for(lambda: demo.dump()["page"] == "interests" and len(groups_of(demo.dump())) == 10, "the cloud")
    boxes = demo.nodes("check box")
    titles = [b.get_name() for b in boxes if b.get_name() in SEED_TITLES]
    check(titles == SEED_TITLES, "the seed's titles in its order: %r" % titles)
    check([t for t in SEED_TITLES if demo.has_state(demo.node("check box", t), Atspi.StateType.CHECKED)] == ["SwiftUI"],
          "SwiftUI selected, nothing else")
    time.sleep(0.6)  # let the stack's crossfade finish before the picture; not a timing assertion
    interests = os.path.join(out, "pick-your-interests.png")
    # What the picture shows: the dark page, each tag's shape in its seed tint (hue), at 0.85
    # when selected and 0.3 when not (how far the pixel is from the page towards the tint).
    pixel = window_pixels(demo, interests)
    check_page_gradient(demo, pixel, "Pick your interests")
    cloud = [e for n, e in showing(demo, "panel") if n.get_name() == "Pick your interests"][0]
    report = []
    for title, tint in zip(SEED_TITLES, SEED_TINTS):
        e = demo.node("check box", title).get_extents(Atspi.CoordType.WINDOW)
        bg = pixel(cloud.x - 8, e.y + 3)  # the page beside the cloud, at the tag's height
        samples = [pixel(e.x + e.width // 2 + dx, e.y + 3 + dy) for dx in (-2, 0, 2) for dy in (0, 1)]
        p = tuple(sum(s[k] for s in samples) / len(samples) for k in range(3))
        t = rgb_of(tint)
        k = max(range(3), key=lambda c: abs(t[c] - bg[c]))
        alpha = (p[k] - bg[k]) / (t[k] - bg[k])
        shown = tuple((p[c] - bg[c] * (1 - alpha)) / max(alpha, 0.05) for c in range(3))
        report.append((title, round(alpha, 2), round(hue_of(shown)), round(hue_of(t))))
        want = 0.85 if title == "SwiftUI" else 0.3
        check(abs(alpha - want) < 0.08, "%s drawn at opacity %.2f, the seed's is %.2f: %r" % (title, alpha, want, report))
        check(hue_distance(hue_of(shown), hue_of(t)) < 12, "%s in the seed's hue: %r" % (title, report))
    for path in (recipe, interests):
        colours = subprocess.run(["identify", "-format", "%k", path], capture_output=True, text=True).stdout
        check(int(colours or 0) > 50, "%s has a real picture (%s colours)" % (path, colours))


def window_pixels(demo, path):
    """A screenshot of the demo, as a function of AT-SPI window coordinates (logical pixels;
    fractions allowed) to (r, g, b): at GDK_SCALE=2 each is two device pixels."""
    demo.screenshot(path)
    width, height, pixels = read_ppm(path)
    frame = demo.node("frame", "Tags").get_extents(Atspi.CoordType.WINDOW)
    s = demo.scale
    ox, oy = (width - frame.width * s) // 2, (height - frame.height * s) // 2

    def pixel(x, y):
        k = ((oy + int(round(y * s))) * width + (ox + int(round(x * s)))) * 3
        return tuple(pixels[k:k + 3])
    return pixel


def still_pixels(demo, path):
    """window_pixels once two screenshots in a row are the same (transitions over)."""
    last = []

    def same():
        demo.screenshot(path)
        last.append(read_ppm(path))
        return len(last) >= 2 and last[-1] == last[-2]
    wait_for(same, "the window to stop changing")
    return window_pixels(demo, path)


def luminance(rgb):
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]


def ink(pixel, x0, y0, x1, y1):
    """How far, on average, the pixels of a box are from its background (its commonest
    colour), in luminance: how strongly the glyphs in it are drawn."""
    from collections import Counter
    box = [pixel(x, y) for y in range(y0, y1) for x in range(x0, x1)]
    bg = luminance(Counter(box).most_common(1)[0][0])
    return sum(abs(luminance(p) - bg) for p in box) / len(box)


@test
def placeholder_is_dimmed(ctx):
    # The empty field's placeholder (the prompt) is drawn dimmer than the same words typed.
    demo = ctx.demo()
    text = demo.node("text", "Add a tag")
    wait_for(lambda: demo.has_state(text, Atspi.StateType.FOCUSED), "the focus in the field")
    placeholder = window_pixels(demo, os.path.join(demo.dir, "placeholder.png"))
    demo.type("Add a tag")
    settle(demo, BASE, "Add a tag")
    typed = window_pixels(demo, os.path.join(demo.dir, "typed.png"))
    # The columns of the text's box where the typed words have ink, less 8 px at each end:
    # the cursor (before the placeholder, after the typed text) stays out of the box.
    e = text.get_extents(Atspi.CoordType.WINDOW)
    bg = luminance(typed(e.x, e.y + e.height // 2))
    inked = [x for x in range(e.x, e.x + e.width)
             if any(abs(luminance(typed(x, y)) - bg) > 40 for y in range(e.y, e.y + e.height))]
    check(inked, "the typed words drawn in the text's box %r" % (e,))
    box = (inked[0] + 8, e.y, inked[-1] - 8, e.y + e.height)
    check(box[2] - box[0] > 20, "the words have a box: %r" % (box,))
    dim, full = ink(placeholder, *box), ink(typed, *box)
    check(full > 10, "the typed text is drawn: %.1f" % full)
    check(dim > 0.15 * full, "the placeholder is drawn: %.1f against %.1f typed" % (dim, full))
    check(dim < 0.7 * full, "the placeholder is dimmer than typed text: %.1f against %.1f" % (dim, full))


@test
def cloud_shapes_stay_inside_and_take_clicks(ctx):
    # Every tag's shape (its frame grown by half the merge distance) is drawn inside the
    # cloud's allocation, and a click on the shape's outer band, outside the tag's frame,
    # toggles the tag.
    demo = ctx.demo()
    demo.click(demo.node("page tab", "Pick your interests"))
    wait_for(lambda: demo.dump()["page"] == "interests" and len(groups_of(demo.dump())) == 10, "the cloud")
    cloud = demo.node("check box", "SwiftUI").get_parent()
    check(cloud.get_role_name() == "panel", "the cloud, a group: %r" % cloud.get_role_name())
    pixel = still_pixels(demo, os.path.join(demo.dir, "cloud.png"))  # after the stack's crossfade
    c = cloud.get_extents(Atspi.CoordType.WINDOW)
    box = (c.x, c.y, c.width, c.height)
    # The page, left of the cloud at the same height (its gradient runs top to bottom).
    rows = {}

    def drawn(x, y):
        if y not in rows:
            rows[y] = pixel(c.x - 14, y)
        return max(abs(a - b) for a, b in zip(pixel(x, y), rows[y])) > 12
    inside = [(x, y) for y in range(c.y, c.y + c.height) for x in range(c.x, c.x + c.width) if drawn(x, y)]
    check(inside, "the shapes are drawn in the cloud %r" % (box,))
    band = 8  # the page around the cloud: its margins are 12 px, nothing else is drawn there
    outside = [(x, y) for y in range(c.y - band, c.y + c.height + band) for x in range(c.x - band, c.x + c.width + band)
               if not (c.x <= x < c.x + c.width and c.y <= y < c.y + c.height) and drawn(x, y)]
    check(not outside, "nothing drawn outside the cloud %r: %d pixels, e.g. %r" % (box, len(outside), outside[:5]))
    # Layout's shape, along its middle line: its drawn left edge, found from the picture (the
    # button's AT-SPI extents, here, are narrower than the shape it is allocated).
    e = demo.node("check box", "Layout").get_extents(Atspi.CoordType.WINDOW)
    y = e.y + e.height // 2
    edge = e.x + e.width // 2
    while drawn(edge - 1, y):
        edge -= 1
    check(edge < e.x, "Layout's shape drawn left of its content (%d, %d)" % (edge, e.x))
    ox, oy = demo.window_offset()
    demo.xdotool("mousemove", str(ox + edge + 2), str(oy + y), "click", "1")
    wait_for(lambda: demo.dump()["cloud"]["selection"] == ["SwiftUI", "Layout"],
             "a click 2 px inside the shape's edge selects Layout")


# ---------------------------------------------------------------------------------------------
# Orca, the screen reader, run headless against the demo (../shared/ORCA.md)


class Orca:
    """Debian's Orca in the test's own D-Bus session and AT-SPI bus, speaking through
    tests/orca/tagd_test_speech.py, which writes each utterance to a file instead of a sound
    device. Speech stays on (orca -d speech would drop the very messages under test); key echo
    is off so that typed letters are not mistaken for announcements."""

    def __init__(self, demo):
        self.demo = demo
        prefs = os.path.join(demo.dir, "orca")
        os.makedirs(prefs)
        general = {"speechServerFactory": "tagd_test_speech", "enableSpeech": True,
                   "enableKeyEcho": False, "enableEchoByCharacter": False, "enableEchoByWord": False,
                   "enableEchoBySentence": False, "enableBraille": False, "enableSound": False,
                   "enableTutorialMessages": False, "enableMnemonicSpeaking": False,
                   "speakPositionInSet": False}
        with open(os.path.join(prefs, "user-settings.conf"), "w") as f:
            json.dump({"general": general, "pronunciations": {}, "keybindings": {},
                       "profiles": {"default": {"profile": ["Default", "default"]}}}, f)
        self.log = os.path.join(demo.dir, "speech.txt")
        open(self.log, "w").close()
        # Orca itself speaks English, whatever the application's language.
        env = dict(demo.env, PYTHONPATH=os.path.join(HERE, "orca"), TAGD_SPEECH_LOG=self.log,
                   LANG="C.UTF-8", LC_ALL="C.UTF-8")
        env.pop("LANGUAGE", None)
        env.pop("LOCPATH", None)
        self.output = open(os.path.join(demo.dir, "orca-output.txt"), "w")
        self.proc = subprocess.Popen([os.path.join(HERE, "orca", "run-orca"), "-u", prefs, "--debug-file", os.path.join(demo.dir, "orca-debug.txt")],
                                     env=env, stdout=self.output, stderr=subprocess.STDOUT)
        wait_for(lambda: "Screen reader on." in self.text(), "Orca to start")
        # Orca may have missed the window's first focus events: move the X focus away and back,
        # as a user switching windows would, and wait until Orca has found the field.
        time.sleep(0.5)
        demo.xdotool("windowfocus", "--sync", demo.window)

    def lines(self):
        with open(self.log, encoding="utf-8") as f:
            return [line.rstrip("\n").split("\t", 2)[2] for line in f if line.count("\t") >= 2]

    def text(self):
        return "\n".join(self.lines())

    def mark(self):
        return len(self.lines())

    def since(self, mark):
        return self.lines()[mark:]

    def hears(self, mark, *parts, what=None):
        """Waits until one utterance after @mark contains every one of @parts."""
        def found():
            for line in self.since(mark):
                if all(p in line for p in parts):
                    return line
            return None
        try:
            return wait_for(found, what or "Orca to say %r" % (parts,), timeout=10)
        except Failure as e:
            raise Failure("%s; Orca said since: %r" % (e, self.since(mark)))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.output.close()


@test
def orca_speaks_the_field_announcements_and_chips(ctx):
    demo = ctx.demo(orca=True)
    orca = demo.orca
    # The window opens with the focus in the field: Orca names it with its prompt.
    orca.hears(0, "Add a tag", what="Orca to speak the field and its prompt when the window opens")
    m = orca.mark()
    demo.key("Tab")
    orca.hears(m, "Add spicy", what="Orca to follow Tab to the first suggestion button")
    m = orca.mark()
    demo.key("shift+Tab")
    orca.hears(m, "Add a tag", what="Orca to speak the field when Tab comes back to it")
    # Every announcement of tagd, as Orca speaks it.
    m = orca.mark()
    demo.type("VEGAN,")
    orca.hears(m, "VEGAN is already a tag, as vegan.")
    m = orca.mark()
    demo.type("spicy,")
    orca.hears(m, "Added spicy.")
    # A refusal (max-tags): spoken, shown below the field, and the text in its error style.
    demo.set_entry("max-tags", "int32 5")
    demo.type("s5,s6,")
    d = settle(demo, BASE + ["spicy", "s5"], "")
    said = d["entry"]["announcement"]
    check("s6" in said, "the announcement names the refused tag: %r" % said)
    orca.hears(m, said)
    wait_for(lambda: demo.node("label", said) is not None and
             demo.has_state(demo.node("label", said), Atspi.StateType.VISIBLE), "the refusal shown below the field")
    check(d["entry"]["dropped"][-1] == "s6|too-many|" + said,
          "tag-dropped gave s6, too-many, and the announcement already held the new sentence: %r" % d["entry"]["dropped"])
    # Chips: Left selects the last one, and Orca reads its Remove button.
    m = orca.mark()
    demo.key("Left")
    orca.hears(m, "Remove s5", "button", what="Orca to read the selected chip's Remove button")
    # Moving it (Alt+Left), removing it (Delete), undo and redo: each announcement spoken.
    # The chip moves at once (tagd-entry-chips.c), so the new order is shown before tagd's
    # reply brings the move's announcement: each step waits for the announcement to change.
    m = orca.mark()
    before = demo.dump()["entry"]["announcement"]
    demo.key("alt+Left")
    d = settle(demo, BASE + ["s5", "spicy"], "", announced_after=before)
    check("s5" in d["entry"]["announcement"], "a move announcement: %r" % d["entry"]["announcement"])
    orca.hears(m, d["entry"]["announcement"])
    m = orca.mark()
    demo.key("Delete")
    d = settle(demo, BASE + ["spicy"], "", announced_after=d["entry"]["announcement"])
    orca.hears(m, "Removed s5.")
    m = orca.mark()
    demo.key("ctrl+z")
    d = settle(demo, BASE + ["s5", "spicy"], "", announced_after=d["entry"]["announcement"])
    orca.hears(m, d["entry"]["announcement"], what="Orca to speak the undo")
    m = orca.mark()
    demo.key("ctrl+shift+z")
    d = settle(demo, BASE + ["spicy"], "", announced_after=d["entry"]["announcement"])
    orca.hears(m, d["entry"]["announcement"], what="Orca to speak the redo")
    # A refusal by every other reason: tagd's own sentence (Protocol/announcements.md), as the
    # announcement property holds it, is what Orca speaks. (The limits keep the four tags:
    # weeknight is 9 characters long.)
    tags = BASE + ["spicy"]
    # The redo takes s5 away again, and with it the chip the undo had focused: the focus comes
    # back to the text (End makes sure of it), and the test waits until Orca has followed it,
    # counting from before the redo, as the focus may move before End is pressed (under load
    # the test once marked after Orca had spoken it, and waited in vain). Typed at full speed
    # straight from a chip, the keys flood Orca 43's event queue, and its flood pruning drops a
    # description change on an object that is not yet its locus of focus
    # (event_manager._pruneEventsDuringFlood), so the refusal would go unspoken. That is
    # Orca's limit, written down in the README's accessibility notes.
    demo.key("End")
    orca.hears(m, "Add a tag", what="Orca to follow the focus back to the text")
    for prop, value, typed, reason, kind in [
            ("max-tag-length", "int32 10", "verylongtag", "too-long", "tooLong"),
            ("pattern", "'[a-z]+'", "abc1", "pattern", "pattern"),
            ("deny", "['meat']", "meat", "denied", "denied"),
            ("allow", "['vegan', 'dinner', 'weeknight', 'spicy', 'tofu']", "bread", "not-allowed", "notAllowed")]:
        demo.set_entry(prop, value)
        m = orca.mark()
        demo.type(typed + ",")
        d = settle(demo, tags, "")
        want = protocol_sentence(kind, typed, 10)
        check(d["entry"]["dropped"][-1] == "%s|%s|%s" % (typed, reason, want),
              "%s refused as %s with tagd's sentence %r: %r" % (typed, reason, want, d["entry"]["dropped"][-1]))
        check(d["entry"]["announcement"] == want, "the announcement is tagd's: %r" % d["entry"]["announcement"])
        orca.hears(m, want, what="Orca to speak the %s refusal %r" % (reason, want))


def protocol_sentence(kind, text, count):
    """The English sentence of @kind in Protocol/announcements.md, for the refused @text (and
    @count, for the rows that have one)."""
    with open(os.path.join(HERE, "..", "..", "..", "Protocol", "announcements.md"), encoding="utf-8") as f:
        rows = [line.split("|") for line in f if line.startswith("| `%s` |" % kind)]
    check(rows, "a %s row in Protocol/announcements.md" % kind)
    sentence = rows[-1][2].strip()  # the plural one, where there are two
    for n in ("20", "10"):
        sentence = sentence.replace(" %s " % n, " %d " % count)
    return sentence.replace("{text}", text)


@test
def orca_speaks_cloud_tags_and_their_state(ctx):
    demo = ctx.demo(orca=True)
    orca = demo.orca
    orca.hears(0, "Add a tag", what="Orca following the demo")
    demo.click(demo.node("page tab", "Pick your interests"))
    wait_for(lambda: demo.dump()["page"] == "interests", "the interests page")
    wait_for(lambda: demo.node("check box", "SwiftUI").get_extents(Atspi.CoordType.WINDOW).width > 0, "laid out")
    # Tab until the Tight spacing switch (just before the cloud) has the focus.
    for _ in range(6):
        if demo.has_state(demo.node("check box", "Tight spacing"), Atspi.StateType.FOCUSED):
            break
        m = orca.mark()
        demo.key("Tab")
        wait_for(lambda: orca.since(m), "Orca to follow Tab")
    check(demo.has_state(demo.node("check box", "Tight spacing"), Atspi.StateType.FOCUSED), "the switch focused")
    m = orca.mark()
    demo.key("Tab")
    orca.hears(m, "SwiftUI", "check box", "checked", what="Orca to say the cloud tag, its role and that it is selected")
    check(not any("not checked" in line and "SwiftUI" in line for line in orca.since(m)), "SwiftUI is not 'not checked'")
    m = orca.mark()
    demo.key("space")
    wait_for(lambda: demo.dump()["cloud"]["selection"] == [], "SwiftUI unselected")
    orca.hears(m, "not checked", what="Orca to say the change when Space toggles the tag")
    m = orca.mark()
    demo.key("Right")
    orca.hears(m, "Animation", "check box", "not checked", what="Orca to read the next tag after Right")
    m = orca.mark()
    demo.key("space")
    wait_for(lambda: demo.dump()["cloud"]["selection"] == ["Animation"], "Animation selected")
    orca.hears(m, "checked", what="Orca to say Animation is now checked")
    check(not any("not checked" in line for line in orca.since(m)), "no 'not checked' after selecting: %r" % orca.since(m))
    m = orca.mark()
    demo.key("Tab")
    wait_for(lambda: not any(demo.has_state(demo.node("check box", t), Atspi.StateType.FOCUSED) for t in SEED_TITLES),
             "one Tab leaves the cloud")
    time.sleep(0.5)  # what Orca says next, if anything; not a timing assertion
    check(not any(t in line for t in SEED_TITLES[2:] for line in orca.since(m)),
          "Tab did not stop at another cloud tag: %r" % orca.since(m))


@test
def tests_keep_to_their_own_session(ctx):
    runtime = ctx.env.get("XDG_RUNTIME_DIR", "")
    check("tagd-gtk-runtime." in runtime, "the tests' XDG_RUNTIME_DIR is their own temporary one: %r" % runtime)
    address = subprocess.run(["gdbus", "call", "--session", "--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus",
                              "--method", "org.a11y.Bus.GetAddress"], env=ctx.env, capture_output=True, text=True).stdout
    check(runtime in address, "the AT-SPI bus the tests use lives in that directory: %r" % address)


# ---------------------------------------------------------------------------------------------
# No key loses text


@test
def no_key_loses_the_draft(ctx):
    demo = ctx.demo()
    demo.type("pasta")
    settle(demo, BASE, "pasta")
    # Home, Left (a chip selected), then End or Escape back to the text: typing adds to it.
    demo.key("Home", "Left")
    wait_for(lambda: demo.selected_chip() == "weeknight", "weeknight selected")
    demo.key("End")
    demo.type("q")
    settle(demo, BASE, "pastaq")
    demo.key("Home", "Left", "Escape")
    demo.type("r")
    settle(demo, BASE, "pastaqr")
    # Home on the chips (the first chip), then back with End.
    demo.key("Home", "Left", "Left", "Home")
    wait_for(lambda: demo.selected_chip() == "vegan", "Home selects the first chip")
    demo.key("End")
    demo.type("s")
    settle(demo, BASE, "pastaqrs")
    # Typing on a selected chip goes into the text, at its end.
    demo.key("Home", "Left")
    wait_for(lambda: demo.selected_chip() == "weeknight", "weeknight selected again")
    demo.type("t")
    d = settle(demo, BASE, "pastaqrst")
    check(d["entry"]["selected"] == -1 and demo.selected_chip() is None, "no chip selected after typing")
    check_atspi_matches(demo, BASE, "pastaqrst")


@test
def keys_pressed_while_tagd_restarts_are_kept(ctx):
    demo = ctx.demo(restartable=True)
    demo.type("more")
    settle(demo, BASE, "more")
    with open(demo.gate, "w") as f:
        f.write("1.5")
    first = demo.dump()["tagdPid"]
    os.kill(first, signal.SIGKILL)
    wait_for(lambda: demo.dump()["tagdPid"] != first, "tagd gone")
    demo.key("Return")  # while tagd restarts
    demo.type("after")
    d = settle(demo, BASE + ["more"], "after")
    check(d["restarts"] >= 1, "tagd restarted: %r" % d["restarts"])
    check_atspi_matches(demo, BASE + ["more"], "after")
    # Again: Backspace on the emptied text and a chip's x during the restart.
    demo.key("ctrl+a", "BackSpace")
    settle(demo, BASE + ["more"], "")
    second = demo.dump()["tagdPid"]
    os.kill(second, signal.SIGKILL)
    wait_for(lambda: demo.dump()["tagdPid"] != second, "tagd gone again")
    demo.key("BackSpace")  # removes "more"
    demo.click(demo.node("push button", "Remove dinner"))
    d = settle(demo, ["vegan", "weeknight"], "")
    check(d["restarts"] >= 2, "tagd restarted twice: %r" % d["restarts"])
    os.unlink(demo.gate)
    check_atspi_matches(demo, ["vegan", "weeknight"], "")


@test
def cloud_toggle_while_tagd_restarts_is_kept(ctx):
    demo = ctx.demo(restartable=True)
    demo.click(demo.node("page tab", "Pick your interests"))
    wait_for(lambda: demo.dump()["page"] == "interests", "the interests page")
    wait_for(lambda: demo.node("check box", "Layout").get_extents(Atspi.CoordType.WINDOW).width > 0,
             "the cloud laid out")
    with open(demo.gate, "w") as f:
        f.write("1.5")
    first = demo.dump()["tagdPid"]
    os.kill(first, signal.SIGKILL)
    wait_for(lambda: demo.dump()["tagdPid"] != first, "tagd gone")
    demo.click(demo.node("check box", "Layout"))  # while tagd restarts: held, sent after cloud/open
    wait_for(lambda: demo.dump()["restarts"] >= 1 and demo.dump()["tagdPid"] not in (0, first),
             "a new tagd child")
    wait_for(lambda: demo.dump()["cloud"]["selection"] == ["SwiftUI", "Layout"], "Layout selected after the restart")
    os.unlink(demo.gate)


# ---------------------------------------------------------------------------------------------
# SPEC §6 behind the keys of §6a


def popover_rows(demo):
    return [n.get_name() for n in demo.nodes("list item") if demo.has_state(n, Atspi.StateType.VISIBLE)]


@test
def suggestions_pop_up_as_you_type(ctx):
    demo = ctx.demo()
    demo.type("sp")
    wait_for(lambda: popover_rows(demo) == ["spicy"], "the popover with spicy")
    row = demo.nodes("list item")[0]
    label = row.get_child_at_index(0)
    attributes, start, end = Atspi.Text.get_attribute_run(label, 0, False)
    check((start, end) == (0, 2) and int(dict(attributes or {}).get("weight", "400")) >= 700,
          "the matched letters sp are bold: %r %r" % ((start, end), attributes))
    attributes, start, end = Atspi.Text.get_attribute_run(label, 2, False)
    check(start == 2 and int(dict(attributes or {}).get("weight", "400")) < 700,
          "the rest is not: %r %r" % ((start, end), attributes))
    demo.key("Tab")  # takes the best suggestion
    d = settle(demo, BASE + ["spicy"], "")
    check(demo.has_state(demo.node("text", "Add a tag"), Atspi.StateType.FOCUSED), "the focus stays in the field")
    wait_for(lambda: popover_rows(demo) == [], "the popover closed")
    # Down/Up + Return picks another one.
    demo.type("e")
    rows = wait_for(lambda: len(popover_rows(demo)) >= 2 and popover_rows(demo), "two or more suggestions for e")
    demo.key("Down", "Down", "Up", "Down")
    demo.key("Return")
    d = settle(demo, BASE + ["spicy", rows[1]], "")
    check(d["suggestions"] == [s for s in ["gluten-free", "30 minutes", "one pot"] if s != rows[1]],
          "the suggestion buttons follow: %r" % d["suggestions"])


@test
def undo_redo_move_and_edit_chips(ctx):
    demo = ctx.demo()
    demo.type("x,")
    settle(demo, BASE + ["x"], "")
    demo.key("ctrl+z")  # tagd's undo: the tag goes, its text comes back into the draft
    settle(demo, BASE, "x")
    demo.key("ctrl+shift+z")
    settle(demo, BASE + ["x"], "")
    # Alt+Left / Alt+Right move the selected chip; the selection follows it (tagd's `selected`).
    demo.key("Left", "alt+Left", "alt+Left")
    d = settle(demo, ["vegan", "x", "dinner", "weeknight"], "")
    wait_for(lambda: demo.dump()["entry"]["selected"] == 1 and demo.selected_chip() == "x", "x selected at index 1")
    demo.key("alt+Right")
    settle(demo, ["vegan", "dinner", "x", "weeknight"], "")
    # Return edits the selected chip where it stands (field/replaceTag), the draft untouched.
    demo.type("half")  # typing on a selected chip goes into the draft
    settle(demo, ["vegan", "dinner", "x", "weeknight"], "half")
    demo.key("Home", "Left", "Left")
    wait_for(lambda: demo.selected_chip() == "x", "x selected again")
    demo.key("Return")
    wait_for(lambda: demo.node("text", "Edit x") is not None, "the chip's text, named Edit x")
    demo.key("End")
    demo.type("y")
    demo.key("Return")
    settle(demo, ["vegan", "dinner", "xy", "weeknight"], "half")
    wait_for(lambda: demo.selected_chip() == "xy", "the edited chip stays selected")
    # A double-click edits too.
    label = demo.node("label", "vegan")
    e = label.get_extents(Atspi.CoordType.WINDOW)
    ox, oy = demo.window_offset()
    demo.xdotool("mousemove", str(ox + e.x + e.width // 2), str(oy + e.y + e.height // 2), "click", "--repeat", "2", "1")
    wait_for(lambda: demo.node("text", "Edit vegan") is not None, "the chip's text, named Edit vegan")
    demo.type("vegetarian")  # the whole tag is selected: typing replaces it
    demo.key("Return")
    settle(demo, ["vegetarian", "dinner", "xy", "weeknight"], "half")
    check_atspi_matches(demo, ["vegetarian", "dinner", "xy", "weeknight"], "half")


@test
def backspace_modes_and_validation_properties(ctx):
    demo = ctx.demo()
    # backspace-mode select: tagd selects the last chip, the entry shows tagd's selection.
    demo.set_entry("backspace-mode", "int32 1")
    demo.key("BackSpace")
    wait_for(lambda: demo.dump()["entry"]["selected"] == 2 and demo.selected_chip() == "weeknight",
             "the first Backspace selects weeknight (tagd's selected)")
    demo.key("BackSpace")
    settle(demo, ["vegan", "dinner"], "")
    # Backspace on the selected chip removed it and selected the one before it.
    wait_for(lambda: demo.dump()["entry"]["selected"] == 1 and demo.selected_chip() == "dinner",
             "dinner selected after weeknight's removal")
    # Changing an option re-opens tagd's session: the user's selection survives it (it once
    # did not, so a Backspace pressed just after an option change acted on a chip or on the
    # draft depending on whether the re-open had finished).
    demo.set_entry("backspace-mode", "int32 2")
    time.sleep(0.5)  # the re-open is answered well within this; the check below is the test
    check(demo.dump()["entry"]["selected"] == 1 and demo.selected_chip() == "dinner",
          "dinner still selected after the option change: %r" % demo.dump()["entry"].get("selected"))
    # backspace-mode edit: on an empty draft, the last tag comes back into the draft.
    demo.key("End")
    wait_for(lambda: demo.dump()["entry"]["selected"] == -1 and demo.selected_chip() is None,
             "End leaves the chips")
    demo.key("BackSpace")
    settle(demo, ["vegan"], "dinner")
    demo.key("ctrl+a", "BackSpace")
    # pattern, deny, allow: refused with the reason, shown and in the error style.
    demo.set_entry("pattern", "'[a-z]+'")
    demo.type("abc1,")
    d = settle(demo, ["vegan"], "")
    check(d["entry"]["dropped"][-1].startswith("abc1|pattern|"), "refused by the pattern: %r" % d["entry"]["dropped"])
    wait_for(lambda: demo.node("label", d["entry"]["announcement"]) is not None, "the refusal shown")
    demo.type("z")  # typing again clears it
    wait_for(lambda: demo.node("label", d["entry"]["announcement"]) is None or
             not demo.has_state(demo.node("label", d["entry"]["announcement"]), Atspi.StateType.VISIBLE),
             "the refusal hidden once the text changes")
    demo.key("BackSpace")
    demo.set_entry("deny", "['meat']")
    demo.type("meat,")
    d = settle(demo, ["vegan"], "")
    check(d["entry"]["dropped"][-1].startswith("meat|denied|"), "denied: %r" % d["entry"]["dropped"])
    demo.set_entry("allow", "['vegan', 'tofu', 'rice']")
    demo.type("tofu,bread,")
    d = settle(demo, ["vegan", "tofu"], "")
    check(d["entry"]["dropped"][-1].startswith("bread|not-allowed|"), "not allowed: %r" % d["entry"]["dropped"])
    # commit-on-blur: Tab out commits the draft (field/blur).
    demo.set_entry("commit-on-blur", "true")
    demo.type("rice")
    settle(demo, ["vegan", "tofu"], "rice")
    demo.key("Tab")
    settle(demo, ["vegan", "tofu", "rice"], "")
    # history 0: nothing to undo.
    demo.set_entry("history", "int32 0")
    demo.key("shift+Tab")
    demo.type("x")
    demo.key("BackSpace", "ctrl+z")
    time.sleep(0.3)  # an undo would have come back by now; the assertion below is the check
    settle(demo, ["vegan", "tofu", "rice"], "")



class Example:
    """One of examples/: a small app of its own, typed into, its printed tags read back."""

    def __init__(self, ctx, argv, title, env=None):
        build = os.path.dirname(ctx.args.demo)
        if env is None:
            env = dict(ctx.env, GI_TYPELIB_PATH=build, LD_LIBRARY_PATH=build, TAGD=ctx.args.tagd)
        self.env = env
        self.log = tempfile.NamedTemporaryFile("w+", prefix="tagd-example-", suffix=".txt")
        self.proc = subprocess.Popen(argv, env=self.env, stdout=self.log, stderr=subprocess.STDOUT, text=True)

        def window():
            out = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(self.proc.pid),
                                  "--name", title], env=self.env, capture_output=True, text=True).stdout.split()
            return out[0] if out else None
        try:
            self.window = wait_for(window, "the %s window" % title)
        except Failure as e:
            self.proc.kill()
            self.proc.wait()
            raise Failure("%s; exit status %r, output %r" % (e, self.proc.returncode, self.output()))

    def type(self, text):
        subprocess.run(["xdotool", "windowfocus", "--sync", self.window], env=self.env, check=True)
        subprocess.run(["xdotool", "type", "--delay", "0", text], env=self.env, check=True)

    def key(self, name):
        subprocess.run(["xdotool", "windowfocus", "--sync", self.window], env=self.env, check=True)
        subprocess.run(["xdotool", "key", name], env=self.env, check=True)

    def output(self):
        self.log.seek(0)
        return self.log.read()

    def wait(self, text, what):
        try:
            wait_for(lambda: text in self.output(), what)
        except Failure as e:
            raise Failure("%s; the app printed %r" % (e, self.output()))

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
        bad = bad_lines(self.output())
        check(not bad, "warnings from the example: %r" % bad)


@test
def c_example_lowercases(ctx):
    app = Example(ctx, [os.path.join(os.path.dirname(ctx.args.demo), "example-entry")], "C tags")
    try:
        app.type("Hello,WORLD")
        app.wait("tags: c, hello", "the tags printed by the C app")
        app.key("Return")
        app.wait("tags: c, hello, world", "Return commits, lowercased")
    finally:
        app.stop()


def readme_block(name):
    """The shell commands of the README's block that follows the line `<!-- NAME -->`."""
    with open(os.path.join(HERE, "..", "README.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.index("<!-- %s -->" % name)
    start = text.index("```sh\n", start) + len("```sh\n")
    return text[start:text.index("```", start)]


def sh(script, env, cwd, what):
    r = subprocess.run(["bash", "-euo", "pipefail", "-c", script], env=env, cwd=cwd, capture_output=True, text=True)
    check(r.returncode == 0, "%s failed (%d):\n%s%s" % (what, r.returncode, r.stdout[-2000:], r.stderr[-2000:]))
    return r.stdout


@test
def readme_install_steps_into_a_temporary_prefix(ctx):
    checkout = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
    prefix = tempfile.mkdtemp(prefix="tagd-gtk-prefix-")
    work = tempfile.mkdtemp(prefix="tagd-gtk-install-")
    try:
        env = dict(ctx.env, PREFIX=prefix)
        env.pop("TAGD", None)
        # tagd: the README's install line, on the binary the tests run (building it is CI's job).
        install_tagd = [line for line in readme_block("install-tagd").splitlines() if line.startswith("install ")]
        check(len(install_tagd) == 1, "one install line for tagd in the README: %r" % install_tagd)
        sh(install_tagd[0].replace(".build/release/tagd", ctx.args.tagd), env, checkout, "installing tagd")
        # The library, exactly as the README says, in a copy of editors/gtk (no _build reused).
        shutil.copytree(os.path.join(HERE, ".."), os.path.join(work, "gtk"),
                        ignore=shutil.ignore_patterns("_build*", "_install", "screenshots", "out"))
        steps = readme_block("install-library").replace("cd editors/gtk\n", "")
        check("--libdir lib\n" in steps, "the README's meson setup line ends with --libdir lib")
        sh(steps.replace("--libdir lib\n", "--libdir lib -Ddocs=true\n"), env, os.path.join(work, "gtk"),
           "the README's install steps (with the API reference, -Ddocs=true)")
        for rel in ["bin/tagd", "lib/libtagd-gtk-1.so", "include/tagd-gtk-1/tagd.h", "include/tagd-gtk-1/tagd-enums.h",
                    "lib/pkgconfig/tagd-gtk-1.pc", "share/gir-1.0/Tagd-1.0.gir", "lib/girepository-1.0/Tagd-1.0.typelib",
                    "share/vala/vapi/tagd-gtk-1.vapi", "share/locale/de/LC_MESSAGES/tagd-gtk-1.mo",
                    "share/doc/tagd-gtk-1/index.html", "share/doc/tagd-gtk-1/class.Entry.html"]:
            check(os.path.exists(os.path.join(prefix, rel)), "installed: %s" % rel)
        with open(os.path.realpath(os.path.join(prefix, "lib", "libtagd-gtk-1.so")), "rb") as f:
            binary = f.read()
        for tree in (checkout, work):
            check(tree.encode() not in binary, "no build-tree path (%s) in the installed library" % tree)
        # Using it, with the README's environment: no TAGD, tagd found on PATH.
        use = dict(env)
        for line in readme_block("use-installed").splitlines():
            if line.startswith("export "):
                for assignment in line[len("export "):].split():
                    k, v = assignment.split("=", 1)
                    use[k] = os.path.expandvars(v.strip('"').replace("$PREFIX", prefix).replace("$" + k, use.get(k, "")))
        # C, compiled with pkg-config against the prefix.
        sh('cc -o "%s/app" examples/entry.c $(pkg-config --cflags --libs tagd-gtk-1)' % work, use,
           os.path.join(work, "gtk"), "compiling examples/entry.c against the installed library")
        app = Example(ctx, [os.path.join(work, "app")], "C tags", env=use)
        try:
            app.type("Hello,")
            app.wait("tags: c, hello", "the installed C app's tags")
        finally:
            app.stop()
        # Python, from the installed typelib.
        app = Example(ctx, ["/usr/bin/python3", os.path.join(HERE, "..", "examples", "entry.py")], "Python tags", env=use)
        try:
            app.type("red,Python,")
            app.wait("tags: python, gtk, red", "the installed Python app's tags")
            app.wait("dropped: Python duplicate 0 | Python is already a tag, as python.",
                     "tag-dropped (a Tagd.DropReason) reached Python with its announcement")
            app.type("x,y,z,")  # the example sets max-tags to 5: the sixth is refused
            app.wait("tags: python, gtk, red, x, y", "two more tags")
            app.wait("dropped: z too-many -1 |", "z refused as one too many")
        finally:
            app.stop()
        # Vala, compiled with the installed VAPI.
        sh('valac -X -w --vapidir "$PREFIX/share/vala/vapi" --pkg tagd-gtk-1 -o "%s/vala-app" examples/entry.vala' % work,
           use, os.path.join(work, "gtk"), "compiling examples/entry.vala against the installed VAPI")
        app = Example(ctx, [os.path.join(work, "vala-app")], "Vala tags", env=use)
        try:
            app.type("a,b,c,d,")
            app.wait("tags: A, B, C", "the Vala app's tags, uppercased")
            app.wait("dropped: D TAGD_DROP_REASON_TOO_MANY", "d refused as one too many")
        finally:
            app.stop()
        # GJS on libadwaita, in German: the library's own strings come from its installed catalogue.
        locales = os.path.join(work, "locales")
        os.makedirs(locales)
        sh('localedef -i de_DE -f UTF-8 "%s/de_DE.UTF-8" 2>/dev/null || [ -d "%s/de_DE.UTF-8" ]' % (locales, locales),
           use, work, "building a German locale for the test")
        german = dict(use, LOCPATH=locales, LANG="de_DE.UTF-8", LC_ALL="de_DE.UTF-8", LANGUAGE="de")
        app = Example(ctx, ["gjs", "-m", os.path.join(HERE, "..", "examples", "entry.js")], "GJS tags", env=german)
        try:
            app.wait("prompt: Tag hinzufügen", "the default prompt in German")
            app.type("js,spam,")
            app.wait("tags: gjs, js", "the GJS app's tags")
            # tagd speaks the application's language (initialize's locale, Protocol 1.2).
            app.wait("dropped: spam denied | spam ist nicht erlaubt.", "spam denied, announced in German")
        finally:
            app.stop()
    finally:
        shutil.rmtree(prefix, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


# ---------------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------------
# Issue 35: no edit or restart deletes a tag unsaid, every refusal seen and heard


@test
def editing_a_chip_into_a_duplicate_or_too_long_keeps_it(ctx):
    demo = ctx.demo(orca=True)
    orca = demo.orca
    orca.hears(0, "Add a tag", what="Orca to speak the field when the window opens")
    demo.type("half")  # a draft of the user's own, which no chip edit may touch
    settle(demo, BASE, "half")
    # weeknight edited into vegan: refused as a duplicate, and weeknight stays where it was.
    demo.key("Home", "Left")
    wait_for(lambda: demo.selected_chip() == "weeknight", "weeknight selected")
    demo.key("Return")
    m = orca.mark()
    demo.key("ctrl+a")
    demo.type("vegan")
    demo.key("Return")
    orca.hears(m, "vegan is already a tag", what="Orca to say why the edit was refused")
    settle(demo, BASE, "half")
    check_atspi_matches(demo, BASE, "half")
    # dinner edited into a text longer than max-tag-length: refused, shown and spoken.
    demo.set_entry("max-tag-length", "int32 10")
    demo.click(demo.node("label", "dinner"))
    wait_for(lambda: demo.selected_chip() == "dinner", "dinner selected by a click")
    demo.key("Return")
    m = orca.mark()
    demo.key("ctrl+a")
    demo.type("dinnerparty")
    demo.key("Return")
    want = protocol_sentence("tooLong", "dinnerparty", 10)
    orca.hears(m, want, what="Orca to speak the too-long refusal %r" % want)
    d = settle(demo, BASE, "half")
    check(d["entry"]["announcement"] == want, "the announcement is tagd's: %r" % d["entry"]["announcement"])
    wait_for(lambda: demo.node("label", want) is not None and
             demo.has_state(demo.node("label", want), Atspi.StateType.VISIBLE), "the refusal shown below the field")
    check_atspi_matches(demo, BASE, "half")
    # An edit that passes changes the tag where it stands; Escape leaves it as it was.
    demo.click(demo.node("label", "dinner"))
    wait_for(lambda: demo.selected_chip() == "dinner", "dinner selected again")
    demo.key("Return", "ctrl+a")
    demo.type("supper")
    demo.key("Return")
    settle(demo, ["vegan", "supper", "weeknight"], "half")
    demo.click(demo.node("label", "vegan"))
    wait_for(lambda: demo.selected_chip() == "vegan", "vegan selected")
    demo.key("Return", "ctrl+a")
    demo.type("zzz")
    demo.key("Escape")
    time.sleep(0.5)  # what an Escape might still send; not a timing assertion
    settle(demo, ["vegan", "supper", "weeknight"], "half")
    check_atspi_matches(demo, ["vegan", "supper", "weeknight"], "half")


def chip_fill(pixel, node, rtl=False):
    """The colour of a chip's own fill: in its start padding (AT-SPI gives the chip's content
    box; the padding is 10 px), where no glyph is drawn."""
    e = node.get_extents(Atspi.CoordType.WINDOW)
    x = e.x + e.width + 4 if rtl else e.x - 5
    samples = [pixel(x + dx, e.y + e.height // 2 + dy) for dx in (0, 1) for dy in (-1, 0, 1)]
    return tuple(sum(s[k] for s in samples) / len(samples) for k in range(3))


@test
def stricter_rule_keeps_tags_and_flags_them(ctx):
    # A stricter rule set at run time (max-tag-length 5) keeps every tag: the ones that break it
    # are flagged (an error ring read from pixels, INVALID for assistive technology), Orca hears
    # tagd's sentence, and lifting the rule clears the flags.
    demo = ctx.demo(orca=True)
    orca = demo.orca
    orca.hears(0, "Add a tag", what="Orca to speak the field when the window opens")
    demo.type("half")
    settle(demo, BASE, "half")
    shot = os.path.join(demo.dir, "flags.png")
    before = {t: chip_fill(still_pixels(demo, shot), demo.node("panel", t)) for t in BASE}
    m = orca.mark()
    demo.set_entry("max-tag-length", "int32 5")
    want = "Kept dinner and weeknight, which break the new rules."
    orca.hears(m, want, what="Orca to say which tags were kept against the new rule")
    d = settle(demo, BASE, "half")
    check(d["entry"]["announcement"] == want, "the announcement: %r" % d["entry"]["announcement"])
    wait_for(lambda: [t for t in BASE if demo.has_state(demo.node("panel", t), Atspi.StateType.INVALID)]
             == ["dinner", "weeknight"], "dinner and weeknight flagged (INVALID) for assistive technology")
    check(demo.node("panel", "dinner").get_description() == want, "the flagged chip describes why: %r"
          % demo.node("panel", "dinner").get_description())

    def redness(c):
        return c[0] - (c[1] + c[2]) / 2
    pixel = still_pixels(demo, shot)
    after = {t: chip_fill(pixel, demo.node("panel", t)) for t in BASE}
    for t in BASE:
        flagged = t != "vegan"
        change = redness(after[t]) - redness(before[t])
        check((change > 25) == flagged, "%s %s red (its fill %r, before %r)"
              % (t, "turned" if flagged else "did not turn", after[t], before[t]))
    # Undo has nothing of it to undo: no tag went. Typing still obeys the rule.
    demo.key("ctrl+a", "BackSpace")
    demo.type("toolong,ok,")
    settle(demo, BASE + ["ok"], "")
    # Lifting the rule clears the flags.
    demo.set_entry("max-tag-length", "int32 -1")
    wait_for(lambda: not any(demo.has_state(demo.node("panel", t), Atspi.StateType.INVALID) for t in BASE),
             "no chip flagged once the rule is lifted")
    pixel = still_pixels(demo, shot)
    check(all(abs(redness(chip_fill(pixel, demo.node("panel", t))) - redness(before[t])) < 10 for t in BASE),
          "the chips back to their colour")


@test
def demo_duplicate_flashes_the_equal_chip(ctx):
    # The demo's teal chips must not hide the library's flash: a typed duplicate is seen.
    demo = ctx.demo()
    chip = demo.node("panel", "vegan")
    shot = os.path.join(demo.dir, "flash.png")
    normal = chip_fill(still_pixels(demo, shot), chip)
    seen = []
    for attempt in range(6):
        m = len(demo.dump()["entry"]["dropped"])
        demo.type("VEGAN,")
        wait_for(lambda: len(demo.dump()["entry"]["dropped"]) > m, "the duplicate refused")
        for _ in range(4):
            c = chip_fill(window_pixels(demo, shot), chip)
            seen.append(tuple(round(v) for v in c))
            if max(abs(c[k] - normal[k]) for k in range(3)) > 40:
                break
        else:
            continue
        break
    check(any(max(abs(c[k] - normal[k]) for k in range(3)) > 40 for c in seen),
          "the vegan chip flashed (its fill %r; seen %r)" % (tuple(round(v) for v in normal), seen))
    # ... and comes back to its own colour.
    wait_for(lambda: max(abs(a - b) for a, b in zip(chip_fill(window_pixels(demo, shot), chip), normal)) < 8,
             "the chip back to its colour")


@test
def orca_hears_one_tag_added_after_a_restart(ctx):
    demo = ctx.demo(orca=True, restartable=True)
    orca = demo.orca
    orca.hears(0, "Add a tag", what="Orca to speak the field when the window opens")
    more = ["a%d" % i for i in range(1, 10)]
    demo.type(",".join(more) + ",")
    settle(demo, BASE + more, "")
    with open(demo.gate, "w") as f:
        f.write("1.5")
    first = demo.dump()["tagdPid"]
    os.kill(first, signal.SIGKILL)
    wait_for(lambda: demo.dump()["tagdPid"] != first, "tagd gone")
    m = orca.mark()
    demo.type("new,")  # typed while tagd restarts
    d = settle(demo, BASE + more + ["new"], "")
    check(d["restarts"] >= 1, "tagd restarted: %r" % d["restarts"])
    os.unlink(demo.gate)
    orca.hears(m, "Added new.", what="Orca to say the one tag added")
    time.sleep(0.5)  # what Orca says next, if anything; not a timing assertion
    check(not any("tags." in line and "Added" in line for line in orca.since(m)),
          "no 'Added N tags.' for the one tag: %r" % orca.since(m))
    check(d["entry"]["announcement"] == "Added new.", "the announcement property: %r" % d["entry"]["announcement"])


@test
def orca_speaks_each_cloud_toggle_once(ctx):
    demo = ctx.demo(orca=True)
    orca = demo.orca
    orca.hears(0, "Add a tag", what="Orca following the demo")
    demo.click(demo.node("page tab", "Pick your interests"))
    wait_for(lambda: demo.dump()["page"] == "interests", "the interests page")
    wait_for(lambda: demo.node("check box", "SwiftUI").get_extents(Atspi.CoordType.WINDOW).width > 0, "laid out")
    for _ in range(8):
        if demo.has_state(demo.node("check box", "SwiftUI"), Atspi.StateType.FOCUSED):
            break
        m = orca.mark()
        demo.key("Tab")
        wait_for(lambda: orca.since(m), "Orca to follow Tab")
    check(demo.has_state(demo.node("check box", "SwiftUI"), Atspi.StateType.FOCUSED), "SwiftUI focused")
    time.sleep(1.0)  # let Orca finish reading the tag; not a timing assertion
    for want, selection in (("not checked", []), ("checked", ["SwiftUI"])):
        m = orca.mark()
        demo.key("space")
        wait_for(lambda: demo.dump()["cloud"]["selection"] == selection, "selection %r" % selection)
        orca.hears(m, want, what="Orca to say %r" % want)
        time.sleep(1.5)  # anything Orca says about it a second time; not a timing assertion
        said = [line for line in orca.since(m) if "checked" in line]
        check(len(said) == 1, "the toggle spoken once: %r" % orca.since(m))


@test
def orca_hears_suggestions_and_nothing_to_undo(ctx):
    demo = ctx.demo(orca=True)
    orca = demo.orca
    orca.hears(0, "Add a tag", what="Orca to speak the field when the window opens")
    m = orca.mark()
    demo.key("ctrl+z")  # nothing typed yet
    orca.hears(m, "Nothing to undo.", what="Orca to say there is nothing to undo")
    check(demo.dump()["entry"]["announcement"] == "Nothing to undo.", "the announcement property")
    # Suggestions appearing, changing and going away are said in tagd's words (the field/suggest
    # result's announcement), not the library's own.
    m = orca.mark()
    demo.type("sp")
    wait_for(lambda: popover_rows(demo) == ["spicy"], "the popover with spicy")
    orca.hears(m, "One suggestion: spicy.", what="Orca to say tagd's sentence: a suggestion appeared")
    m = orca.mark()
    demo.key("BackSpace")
    wait_for(lambda: len(popover_rows(demo)) >= 2, "more suggestions for s")
    rows = popover_rows(demo)
    orca.hears(m, "%d suggestions; the first is %s." % (len(rows), rows[0]),
               what="Orca to say tagd's sentence: how many suggestions there are now, and the first")
    m = orca.mark()
    demo.type("zq")
    wait_for(lambda: popover_rows(demo) == [], "the popover gone for szq")
    orca.hears(m, "No suggestions.", what="Orca to say tagd's sentence: the suggestions went away")


@test
def german_remove_buttons_from_the_build_tree(ctx):
    # A developer runs the demo from the build tree (./run-demo) in a German session: the
    # library's own strings come from the catalogues built there, not from an install.
    locales = os.path.join(tempfile.mkdtemp(prefix="tagd-gtk-locale-"), "locales")
    os.makedirs(locales)
    subprocess.run('localedef -i de_DE -f UTF-8 "%s/de_DE.UTF-8" 2>/dev/null || [ -d "%s/de_DE.UTF-8" ]'
                   % (locales, locales), shell=True, check=True)
    german = {"LOCPATH": locales, "LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8", "LANGUAGE": "de"}
    demo = ctx.demo(run_demo=True, env_extra=german, orca=True)
    orca = demo.orca
    wait_for(lambda: demo.node("push button", "vegan entfernen") is not None,
             "the Remove button named in German: %r" % [n.get_name() for n in demo.nodes("push button")])
    check(demo.node("push button", "Remove vegan") is None, "no English Remove button left")
    m = orca.mark()
    demo.key("Left")
    orca.hears(m, "weeknight entfernen", what="Orca to read the selected chip's button in German")


# ---------------------------------------------------------------------------------------------
# Issue 35: the seed's designs, measured from pixels

# The demo's page gradient (demo/tagd-demo.c): indigo #5e5ce6 at 45 % over black at the top,
# black at the bottom; the field's radius and fill; the chips' teal.
PAGE_TOP = (0x2a, 0x29, 0x68)
PAGE_BOTTOM = (0, 0, 0)
FIELD_RADIUS = 14
FIELD_FILL = 0.08
TEAL = (0x30, 0xb0, 0xc7)
CHIP_TINT = 0.16


def showing(demo, role):
    """The nodes of @role that are on screen now (the visible stack page's)."""
    found = []
    for n in demo.nodes(role):
        try:
            e = n.get_extents(Atspi.CoordType.WINDOW)
            if e.width > 0 and e.height > 0:  # GTK 4.8 reports no SHOWING; a hidden page is 0 x 0
                found.append((n, e))
        except gi.repository.GLib.GError:
            pass  # not a component (no extents)
    return found


def check_page_gradient(demo, pixel, what):
    # The page: the largest group on screen (its scrolled window; the stack has the same area).
    pages = [e for n, e in showing(demo, "panel")]
    check(pages, "the page on screen")
    page = max(pages, key=lambda e: e.width * e.height)
    report = []
    for fx in (0, 1):
        for fy in (0, 1):
            x = page.x + 16 if fx == 0 else page.x + page.width - 17
            y = page.y + 16 if fy == 0 else page.y + page.height - 17
            t = (y - page.y) / max(page.height - 1, 1)
            want = tuple(PAGE_TOP[k] + (PAGE_BOTTOM[k] - PAGE_TOP[k]) * t for k in range(3))
            have = pixel(x, y)
            report.append(((x, y), have, tuple(round(v) for v in want)))
            check(max(abs(have[k] - want[k]) for k in range(3)) <= 10,
                  "%s: the page's indigo-to-black gradient at its corners: %r" % (what, report))


def corner_radius(pixel, x0, y0, sx, sy, outside):
    """The radius of a rounded corner at (x0, y0) whose inside lies towards (sx, sy): where the
    diagonal from the corner first meets the shape's edge, t = r (1 - 1/sqrt 2)."""
    for i in range(0, 80):
        t = i / 4
        p = pixel(x0 + sx * t, y0 + sy * t)
        if max(abs(p[k] - outside[k]) for k in range(3)) > 12:
            return t / (1 - 0.5 ** 0.5)
    return None


def design_pixels(ctx, dark, scale, rtl):
    what = "%s, %dx, %s" % ("dark" if dark else "light", scale, "rtl" if rtl else "ltr")
    demo = ctx.demo(dark=dark, scale=scale, extra=["--rtl"] if rtl else [])
    demo.key("Home")
    pixel = still_pixels(demo, os.path.join(demo.dir, "recipe.png"))
    check_page_gradient(demo, pixel, what + ", Recipe tags")
    field = [e for n, e in showing(demo, "panel") if n.get_name() == "Recipe tags"][0]  # not the stack page
    mid = field.y + field.height // 2
    # The fill: a faint white over the page, read where the field's text is empty.
    inside_x = field.x + 24 if rtl else field.x + field.width - 24
    outside_x = field.x + field.width + 10 if rtl else field.x - 10
    inside, outside = pixel(inside_x, mid), pixel(outside_x, mid)
    fill = sum((inside[k] - outside[k]) / max(255 - outside[k], 1) for k in range(3)) / 3
    check(abs(fill - FIELD_FILL) <= 0.035, "%s: the field's fill is white at %.3f over the page, the seed's is %.2f "
          "(inside %r, outside %r)" % (what, fill, FIELD_FILL, inside, outside))
    # The corners: 14 points, at the top left and the bottom right, of the field's box as drawn
    # (AT-SPI gives its content box): its edges found from the page inwards.
    def edge(x, y, dx, dy):
        ref = pixel(x, y)
        for i in range(1, 200):
            p = pixel(x + dx * i / 2, y + dy * i / 2)
            if max(abs(p[k] - ref[k]) for k in range(3)) > 12:
                return x + dx * i / 2 if dx else y + dy * i / 2
        return None
    left, right = edge(field.x - 20, mid, 1, 0), edge(field.x + field.width + 20, mid, -1, 0)
    top, bottom = edge(inside_x, field.y - 20, 0, 1), edge(inside_x, field.y + field.height + 20, 0, -1)
    check(None not in (left, right, top, bottom), "%s: the field's edges found %r" % (what, (left, right, top, bottom)))
    # With the focus (the window opens with it in the field), a 2-point teal border.
    ring = pixel(left + 1.5, mid) if not rtl else pixel(right - 1.5, mid)
    check(hue_distance(hue_of(ring), hue_of(TEAL)) < 20 and max(ring) - min(ring) > 60,
          "%s: the focused field's border is teal: %r" % (what, ring))
    radii = [corner_radius(pixel, left, top, 1, 1, pixel(left - 3, top)),
             corner_radius(pixel, right, bottom, -1, -1, pixel(right + 3, bottom))]
    check(all(r is not None and abs(r - FIELD_RADIUS) <= 3 for r in radii),
          "%s: the field's corner radius %r, the seed's is %d" % (what, radii, FIELD_RADIUS))
    # The chips: teal at 16 % over the field.
    chip = chip_fill(pixel, demo.node("panel", "vegan"), rtl)
    if True:
        base = pixel(inside_x, demo.node("panel", "vegan").get_extents(Atspi.CoordType.WINDOW).y + 6)
        k = max(range(3), key=lambda c: abs(TEAL[c] - base[c]))
        tint = (chip[k] - base[k]) / (TEAL[k] - base[k])
        check(abs(tint - CHIP_TINT) <= 0.05, "%s: chips teal at %.2f, the seed's is %.2f (chip %r over %r)"
              % (what, tint, CHIP_TINT, chip, base))
    # The title: libadwaita's title-2, larger than the body text (its ink, glyph rows).
    def ink_rows(node):
        e = node.get_extents(Atspi.CoordType.WINDOW)
        back = pixel(e.x + (e.width - 2 if not rtl else 1), e.y + 1)
        rows = [y for y in range(e.y, e.y + e.height)
                if any(abs(luminance(pixel(x, y)) - luminance(back)) > 60 for x in range(e.x, e.x + e.width))]
        return (max(rows) - min(rows) + 1) if rows else 0
    title = [n for n, e in showing(demo, "label") if n.get_name() == "Recipe tags"][0]
    body = [n for n, e in showing(demo, "label") if n.get_name() == "Press return or type a comma to add one"][0]
    ratio = ink_rows(title) / max(ink_rows(body), 1)
    check(ratio >= 1.25, "%s: the title's glyphs %.2f times the body's, title-2 is 1.36" % (what, ratio))
    if rtl:
        te = title.get_extents(Atspi.CoordType.WINDOW)
        check(te.x + te.width > field.x + field.width - 40, "%s: the title on the right" % what)
    # The interests page: the same gradient.
    demo.click(demo.node("page tab", "Pick your interests"))
    wait_for(lambda: demo.dump()["page"] == "interests" and len(groups_of(demo.dump())) == 10, "the cloud")
    pixel = still_pixels(demo, os.path.join(demo.dir, "interests.png"))
    check_page_gradient(demo, pixel, what + ", Pick your interests")


@test
def seed_design_light_1x(ctx):
    design_pixels(ctx, dark=False, scale=1, rtl=False)


@test
def seed_design_dark_2x(ctx):
    design_pixels(ctx, dark=True, scale=2, rtl=False)


@test
def seed_design_light_2x_rtl(ctx):
    design_pixels(ctx, dark=False, scale=2, rtl=True)


@test
def seed_design_dark_1x_rtl(ctx):
    design_pixels(ctx, dark=True, scale=1, rtl=True)


@test
def cloud_titles_never_overlap_while_animating(ctx):
    demo = ctx.demo()
    demo.click(demo.node("page tab", "Pick your interests"))
    wait_for(lambda: demo.dump()["page"] == "interests" and len(groups_of(demo.dump())) == 10, "the cloud")
    for spacing in (3, 18):
        runs = demo.dump()["cloud"]["animationRuns"]
        demo.click(demo.node("check box", "Tight spacing"))
        d = wait_for(lambda: (lambda d: d if d["cloud"]["animationRuns"] > runs and not d["cloud"]["animating"]
                              and d["cloud"]["spacing"] == spacing else None)(demo.dump()),
                     "the animation to spacing %d to end" % spacing)
        labels = d["cloud"]["animationLabels"]
        n = len(SEED_TITLES)
        frames = [labels[i:i + 4 * n] for i in range(0, len(labels), 4 * n)]
        check(len(frames) >= 3, "frames painted during the animation: %d" % len(frames))
        for f, values in enumerate(frames):
            rects = [values[4 * k:4 * k + 4] for k in range(n)]
            for a in range(n):
                for b in range(a + 1, n):
                    ax, ay, aw, ah = rects[a]
                    bx, by, bw, bh = rects[b]
                    w = min(ax + aw, bx + bw) - max(ax, bx)
                    h = min(ay + ah, by + bh) - max(ay, by)
                    check(w <= 0.5 or h <= 0.5, "frame %d of %d (to spacing %d): %s and %s overlap: %r %r"
                          % (f, len(frames), spacing, SEED_TITLES[a], SEED_TITLES[b], rects[a], rects[b]))


# ---------------------------------------------------------------------------------------------
# The vault in a notes app (SPEC §6d): the demo's Notes page on a copy of demo/vault


@test
def notes_page_vault_cloud_notes_and_front_matter(ctx):
    vault = os.path.join(tempfile.mkdtemp(prefix="tagd-gtk-vault-"), "vault")
    shutil.copytree(os.path.join(HERE, "..", "demo", "vault"), vault)
    demo = ctx.demo(extra=["--vault", vault])
    demo.click(demo.node("page tab", "Notes"))
    wait_for(lambda: demo.dump()["page"] == "notes", "the Notes page")
    # The cloud: the vault's tags, those carried by the most notes first.
    d = wait_for(lambda: (lambda d: d if len(d["notes"]["tags"]) == 7 else None)(demo.dump()), "the vault's seven tags")
    tags = d["notes"]["tags"]
    check(set(tags[:2]) == {"dinner", "vegan"} and set(tags[2:3]) == {"quick"} and
          set(tags) == {"dinner", "vegan", "quick", "spicy", "lunch", "soup", "winter"},
          "the vault's tags, most used first: %r" % tags)
    wait_for(lambda: demo.node("check box", "dinner").get_extents(Atspi.CoordType.WINDOW).width > 0, "laid out")
    # Its selection names the notes that carry every selected tag.
    demo.click(demo.node("check box", "dinner"))
    # Each note by tagd's title (its front matter's `title`).
    wait_for(lambda: sorted(demo.dump()["notes"]["titles"]) == ["Chickpea curry", "Tomato soup", "Weeknight pasta"],
             "the three dinner notes listed: %r" % demo.dump()["notes"])
    demo.click(demo.node("check box", "vegan"))
    wait_for(lambda: sorted(demo.dump()["notes"]["titles"]) == ["Chickpea curry", "Weeknight pasta"],
             "the two vegan dinners")
    rows = wait_for(lambda: [n for n in demo.nodes("list item") if n.get_name() in ("Chickpea curry", "Weeknight pasta")
                             and n.get_extents(Atspi.CoordType.WINDOW).width > 0], "the notes in the list")
    check(sorted(n.get_name() for n in rows) == ["Chickpea curry", "Weeknight pasta"], "the list shows them by their titles")
    # The note picked: its tags in the entry; a tag added is written into its front matter.
    demo.click([n for n in rows if n.get_name() == "Weeknight pasta"][0])
    wait_for(lambda: demo.dump()["notes"]["noteTags"] == ["dinner", "vegan", "quick"], "the note's tags in the entry")
    if ctx.shots:
        demo.screenshot(os.path.join(ctx.shots, "notes.png"))
    text = demo.nodes("text", "Add a tag")[-1]  # the Notes page's entry (the recipe page's comes first)
    demo.click(text)
    demo.type("spi")
    # (the notes list's rows are list items too)
    wait_for(lambda: "spicy" in popover_rows(demo),
             "the vault's spicy suggested (suggestFromVault)")
    demo.key("Escape", "ctrl+a", "BackSpace")
    demo.type("easy,")
    wait_for(lambda: demo.dump()["notes"]["noteTags"] == ["dinner", "vegan", "quick", "easy"], "easy added")
    path = os.path.join(vault, "pasta.md")
    wait_for(lambda: "easy" in open(path).read().split("---")[1], "easy written into the note's front matter")
    with open(path) as f:
        note = f.read()
    check(note.startswith("---\ntitle: Weeknight pasta\n") and "Boil the pasta" in note,
          "the rest of the note as it was: %r" % note)
    # tagd reads the change and the cloud shows the new tag.
    wait_for(lambda: "easy" in demo.dump()["notes"]["tags"], "the new tag in the cloud")


class Context:
    def __init__(self, args, env):
        self.args = args
        self.env = env
        self.shots = args.shots
        self.demos = []

    def demo(self, **kw):
        d = Demo(self.args, self.env, self.args.tagd, **kw)
        self.demos.append(d)
        return d


def bad_lines(stderr):
    return [line for line in stderr.splitlines()
            if "WARNING" in line or "CRITICAL" in line or "ERROR" in line]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tagd", required=True)
    parser.add_argument("--demo", required=True)
    parser.add_argument("--shots")
    parser.add_argument("-k")
    args = parser.parse_args()
    if args.shots:
        os.makedirs(args.shots, exist_ok=True)

    base = dict(os.environ)
    base.update({"GDK_BACKEND": "x11", "GSK_RENDERER": "cairo", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
                 "GTK_THEME": "Adwaita"})
    base.pop("WAYLAND_DISPLAY", None)
    base.pop("NO_AT_BRIDGE", None)
    passed = failed = 0
    for fn in TESTS:
        if args.k and not any(k in fn.__name__ for k in args.k.split(",")):
            continue
        # A fresh X server for each test: nothing one test leaves behind reaches the next.
        display = Display()
        env = dict(base, DISPLAY=display.name)
        ctx = Context(args, env)
        error = None
        try:
            fn(ctx)
        except Failure as e:
            error = str(e)
        except Exception:
            error = traceback.format_exc()
        for d in ctx.demos:
            lines = bad_lines(d.stop())
            if lines and error is None:
                error = "warnings on the console:\n    " + "\n    ".join(lines[:10])
        display.stop()
        if error is None:
            passed += 1
            print("ok    %s" % fn.__name__, flush=True)
            for d in ctx.demos:
                shutil.rmtree(d.dir, ignore_errors=True)
        else:
            failed += 1
            print("FAIL  %s: %s" % (fn.__name__, error), flush=True)
            for d in ctx.demos:
                print("      (its files: %s)" % d.dir, flush=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
