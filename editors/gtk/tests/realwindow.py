#!/usr/bin/python3
"""Real-window tests for the GTK widgets: the demo under Xvfb, real keystrokes and clicks
(xdotool), results read back through AT-SPI and through the widgets' properties (the demo's
app.dump action). Run inside a D-Bus session (run-tests uses dbus-run-session).

Usage: realwindow.py --tagd PATH --demo PATH [--shots DIR] [-k NAME]
"""
import argparse
import json
import os
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
                ["Xvfb", ":%d" % n, "-displayfd", str(w), "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
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
    def __init__(self, args, env, tagd, slow=False, animations=True, extra=()):
        self.dir = tempfile.mkdtemp(prefix="tagd-gtk-test-")
        self.env = dict(env)
        self.env["XDG_CONFIG_HOME"] = os.path.join(self.dir, "config")
        os.makedirs(os.path.join(self.env["XDG_CONFIG_HOME"], "gtk-4.0"))
        with open(os.path.join(self.env["XDG_CONFIG_HOME"], "gtk-4.0", "settings.ini"), "w") as f:
            f.write("[Settings]\ngtk-enable-animations=%s\n" % ("true" if animations else "false"))
        program = tagd
        if slow:
            self.env["TAGD_REAL"] = tagd
            program = os.path.join(HERE, "slow-tagd")
        self.stderr_path = os.path.join(self.dir, "stderr.txt")
        self.stderr = open(self.stderr_path, "w")
        self.proc = subprocess.Popen([args.demo, "--tagd", program] + list(extra), env=self.env,
                                     stdout=self.stderr, stderr=self.stderr)
        self.app = wait_for(self._find_app, "the demo in the AT-SPI tree")
        self.window = wait_for(self._find_window, "the demo's X window")
        wait_for(lambda: self.dump()["entry"]["tags"] == BASE and self.node("text", "Add a tag"),
                 "the field with its three tags")

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
        return ((int(values["WIDTH"]) - frame.width) // 2 + int(values["X"]),
                (int(values["HEIGHT"]) - frame.height) // 2 + int(values["Y"]))

    def click(self, node):
        e = node.get_extents(Atspi.CoordType.WINDOW)
        ox, oy = self.window_offset()
        self.xdotool("mousemove", str(ox + e.x + e.width // 2), str(oy + e.y + e.height // 2),
                     "click", "1")

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
        subprocess.run(["import", "-window", self.window, path], env=self.env, check=True)

    def stop(self):
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


def settle(demo, want_tags, want_draft):
    """Waits until the widget's tags property and its text show the expected state."""
    def done():
        d = demo.dump()
        return d if d["entry"]["tags"] == want_tags and d["entry"]["draft"] == want_draft else None
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
    wait_for(lambda: demo.node("text", "Add a tag").get_description() == want,
             "the announcement as the text's accessible description")
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
    wait_for(lambda: demo.has_state(demo.node("panel", "vegan"), Atspi.StateType.FOCUSED),
             "the vegan chip selected (focused)")
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
    wait_for(lambda: demo.has_state(demo.node("panel", "vegan"), Atspi.StateType.FOCUSED), "vegan selected")
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
    wait_for(lambda: demo.node("push button", "Rust").get_extents(Atspi.CoordType.WINDOW).width > 0,
             "the cloud laid out")
    demo.click(demo.node("push button", "Rust"))
    wait_for(lambda: demo.dump()["cloud"]["selection"] == ["SwiftUI", "Rust"], "Rust selected after the restart")


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
    wait_for(lambda: demo.has_state(demo.node("panel", "weeknight"), Atspi.StateType.FOCUSED), "weeknight selected")
    demo.key("Delete")
    settle(demo, ["vegan", "dinner"], "")
    demo.click(demo.node("page tab", "Pick your interests"))
    wait_for(lambda: x("push button", "SwiftUI") > x("push button", "Swift") > 0, "the cloud mirrored")
    demo.click(demo.node("check box", "Tight spacing"))
    wait_for(lambda: demo.dump()["cloud"]["spacing"] == 3 and not demo.dump()["cloud"]["animating"], "tight")
    if ctx.shots:
        time.sleep(0.3)  # the switch's own slide; a picture, not an assertion
        demo.screenshot(os.path.join(ctx.shots, "rtl-interests-tight.png"))


@test
def cloud_selection_and_accessibility(ctx):
    demo = ctx.demo()
    demo.click(demo.node("page tab", "Pick your interests"))
    wait_for(lambda: demo.dump()["page"] == "interests", "the interests page")
    titles = ["SwiftUI", "Swift", "Rust", "Go", "Python", "Kotlin", "TypeScript", "Haskell", "Elixir", "Zig"]
    buttons = [demo.node("push button", t) for t in titles]
    check(all(b is not None for b in buttons), "a button per cloud tag, named by its title")
    check(demo.has_state(buttons[0], Atspi.StateType.PRESSED), "SwiftUI is pressed (selected)")
    check(not any(demo.has_state(b, Atspi.StateType.PRESSED) for b in buttons[1:]), "the others are not")
    wait_for(lambda: demo.node("push button", "Go").get_extents(Atspi.CoordType.WINDOW).width > 0, "laid out")
    demo.click(demo.node("push button", "Go"))
    wait_for(lambda: demo.dump()["cloud"]["selection"] == ["SwiftUI", "Go"], "Go selected")
    wait_for(lambda: demo.has_state(demo.node("push button", "Go"), Atspi.StateType.PRESSED), "Go pressed in AT-SPI")
    demo.click(demo.node("push button", "SwiftUI"))
    wait_for(lambda: demo.dump()["cloud"]["selection"] == ["Go"], "SwiftUI unselected")
    wait_for(lambda: not demo.has_state(demo.node("push button", "SwiftUI"), Atspi.StateType.PRESSED),
             "SwiftUI not pressed in AT-SPI")
    # Keyboard: the clicked tag has focus; Tab moves to the next tag and Space toggles it.
    demo.key("Tab", "space")
    wait_for(lambda: demo.dump()["cloud"]["selection"] == ["Swift", "Go"], "Swift selected from the keyboard")
    wait_for(lambda: demo.has_state(demo.node("push button", "Swift"), Atspi.StateType.PRESSED), "Swift pressed")


def groups_of(d):
    return d["cloud"]["groups"]


@test
def tight_spacing_animates_and_merges_groups(ctx):
    demo = ctx.demo()
    demo.click(demo.node("page tab", "Pick your interests"))
    loose = wait_for(lambda: len(groups_of(demo.dump())) == 10 and groups_of(demo.dump()),
                     "the cloud laid out")
    check(len(set(loose)) == 10, "at spacing 18 no two tags merge: %r" % loose)
    swift = demo.node("push button", "Swift").get_extents(Atspi.CoordType.WINDOW).x
    demo.click(demo.node("check box", "Tight spacing"))
    wait_for(lambda: demo.dump()["cloud"]["animationRuns"] == 1 and not demo.dump()["cloud"]["animating"]
             and demo.dump()["cloud"]["spacing"] == 3, "the animation to run and end")
    tight = groups_of(demo.dump())
    end_x = demo.node("push button", "Swift").get_extents(Atspi.CoordType.WINDOW).x
    check(end_x < swift, "Swift moved left (%d -> %d)" % (swift, end_x))
    # Frames painted during the animation showed Swift on its way, strictly between the ends.
    xs = demo.dump()["cloud"]["animationXs"]
    start, end = max(xs), min(xs)
    between = [x for x in xs if end + 0.5 < x < start - 0.5]
    check(len(between) >= 2, "intermediate positions painted during the animation: %r" % xs)
    check(len(set(tight)) < 10, "at spacing 3 neighbours merge: %r" % tight)
    check(tight[0] == tight[1], "SwiftUI and Swift, 3 px apart on one line, are one shape: %r" % tight)
    if ctx.shots:
        demo.screenshot(os.path.join(ctx.shots, "interests-tight.png"))
    demo.click(demo.node("check box", "Tight spacing"))
    wait_for(lambda: len(set(groups_of(demo.dump()))) == 10 and not demo.dump()["cloud"]["animating"],
             "loose again: ten separate shapes")


@test
def no_animation_when_animations_are_off(ctx):
    demo = ctx.demo(animations=False)
    demo.click(demo.node("page tab", "Pick your interests"))
    wait_for(lambda: len(groups_of(demo.dump())) == 10, "the cloud laid out")
    demo.click(demo.node("check box", "Tight spacing"))
    wait_for(lambda: demo.dump()["cloud"]["spacing"] == 3 and len(set(groups_of(demo.dump()))) < 10,
             "the tight layout")
    check(demo.dump()["cloud"]["animationRuns"] == 0, "no animation ran with gtk-enable-animations off")


@test
def screenshots_of_both_pages(ctx):
    demo = ctx.demo()
    demo.type("spicy,")
    settle(demo, BASE + ["spicy"], "")
    demo.type("one p")
    settle(demo, BASE + ["spicy"], "one p")
    out = ctx.shots or demo.dir
    recipe = os.path.join(out, "recipe-tags.png")
    demo.screenshot(recipe)
    demo.click(demo.node("page tab", "Pick your interests"))
    wait_for(lambda: demo.dump()["page"] == "interests" and len(groups_of(demo.dump())) == 10, "the cloud")
    demo.click(demo.node("push button", "Rust"))
    wait_for(lambda: demo.dump()["cloud"]["selection"] == ["SwiftUI", "Rust"], "Rust selected")
    time.sleep(0.5)  # let the stack's crossfade finish before the picture; not a timing assertion
    interests = os.path.join(out, "pick-your-interests.png")
    demo.screenshot(interests)
    for path in (recipe, interests):
        colours = subprocess.run(["identify", "-format", "%k", path], capture_output=True, text=True).stdout
        check(int(colours or 0) > 50, "%s has a real picture (%s colours)" % (path, colours))


class Example:
    """One of examples/: a small app of its own, typed into, its printed tags read back."""

    def __init__(self, ctx, argv, title):
        build = os.path.dirname(ctx.args.demo)
        self.env = dict(ctx.env)
        self.env.update({"GI_TYPELIB_PATH": build, "LD_LIBRARY_PATH": build, "TAGD": ctx.args.tagd})
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

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
        bad = bad_lines(self.output())
        check(not bad, "warnings from the example: %r" % bad)


@test
def python_example_uses_the_gir(ctx):
    app = Example(ctx, ["/usr/bin/python3", os.path.join(HERE, "..", "examples", "entry.py")], "Python tags")
    try:
        app.type("red,Python,green,")
        # The example adds "gtk" with add_tags() right after creating the entry.
        wait_for(lambda: "tags: python, gtk, red, green" in app.output(), "the tags printed by the Python app")
        check("dropped: Python duplicate 0" in app.output(), "tag-dropped reached Python: %r" % app.output())
        # The example sets max-tags to 5: the sixth candidate is refused.
        app.type("x,y,")
        wait_for(lambda: "tags: python, gtk, red, green, x" in app.output(), "one more tag")
        wait_for(lambda: "dropped: y tooMany -1" in app.output(), "y refused as one too many")
    finally:
        app.stop()


@test
def c_example_lowercases(ctx):
    app = Example(ctx, [os.path.join(os.path.dirname(ctx.args.demo), "example-entry")], "C tags")
    try:
        app.type("Hello,WORLD")
        wait_for(lambda: "tags: c, hello" in app.output(), "the tags printed by the C app")
        app.key("Return")
        wait_for(lambda: "tags: c, hello, world" in app.output(), "Return commits, lowercased")
    finally:
        app.stop()


# ---------------------------------------------------------------------------------------------


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
        if args.k and args.k not in fn.__name__:
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
        else:
            failed += 1
            print("FAIL  %s: %s" % (fn.__name__, error), flush=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
