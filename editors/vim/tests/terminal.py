#!/usr/bin/env python3
"""Real-terminal tests of the Vim plugin: Vim runs in tmux (a private tmux server, no user
config), keys are typed at full speed (one send-keys per burst), and what is checked is the
screen as tmux shows it (capture-pane, with -e for colours), plus the tags read back from Vim
where the screen cannot tell.

Every function named test_* below is run, in file order, each on a fresh Vim.
Usage: tests/terminal.py [pattern]   (env TAGD: the tagd binary; prints PASS/FAIL lines)
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)  # editors/vim
SOCK = "tagd-vim-test-%d" % os.getpid()
WIDTH, HEIGHT = 60, 20
TMP = tempfile.mkdtemp()
results = []


def tmux(*args, check=True):
    return subprocess.run(["tmux", "-u", "-L", SOCK, "-f", "/dev/null", *args], check=check,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True).stdout


def wait(cond, timeout=15.0):
    """Poll cond() until true; timeout is an upper bound only."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return cond()


def check(name, ok, detail=""):
    results.append(bool(ok))
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else ": " + detail), flush=True)


def sgr_attrs(text):
    """(plain text, the SGR state in effect at each of its characters) of a capture-pane -e."""
    attrs, plain, i, st = [], [], 0, {}
    while i < len(text):
        m = re.match(r"\x1b\[([0-9;]*)m", text[i:])
        if not m:
            plain.append(text[i])
            attrs.append(tuple(sorted(st.items())))
            i += 1
            continue
        i += m.end()
        ps = [int(p) for p in m.group(1).split(";") if p != ""] or [0]
        k = 0
        while k < len(ps):
            p = ps[k]
            if p == 0:
                st = {}
            elif p in (38, 48) and k + 1 < len(ps):
                n = 3 if ps[k + 1] == 5 else 5
                st["fg" if p == 38 else "bg"] = tuple(ps[k + 1:k + n])
                k += n - 1
            elif p in (39, 49):
                st.pop("fg" if p == 39 else "bg", None)
            elif 30 <= p <= 37 or 90 <= p <= 97:
                st["fg"] = p
            elif 40 <= p <= 47 or 100 <= p <= 107:
                st["bg"] = p
            elif p in (22, 23, 24, 27):
                st.pop("a%d" % (p - 20), None)
                if p == 22:
                    st.pop("a2", None)
            else:
                st["a%d" % p] = True
            k += 1
    return "".join(plain), attrs


class Vim:
    """One Vim in its own tmux session."""
    count = 0

    def __init__(self, *cmds, args="", width=WIDTH, height=HEIGHT, env=""):
        Vim.count += 1
        self.s = "v%d" % Vim.count
        self.out = os.path.join(TMP, self.s + ".state")
        pre = " ".join("-c %s" % shlex.quote(c) for c in cmds)
        cmd = ("LANG=C.UTF-8 %s TAGD=%s vim -Nu NONE -i NONE -n --cmd 'set encoding=utf-8' --cmd %s "
               "--cmd 'let g:tagd_flash_ms = 3000' -c 'runtime plugin/tagd.vim' %s %s") % (
                   env, shlex.quote(os.environ.get("TAGD", "")),
                   shlex.quote("set rtp^=" + ROOT.replace(" ", "\\ ")), pre, args)
        try:
            tmux("new-session", "-d", "-s", self.s, "-x", str(width), "-y", str(height), cmd)
        except subprocess.CalledProcessError:   # the last test's server was still exiting
            time.sleep(0.5)
            tmux("new-session", "-d", "-s", self.s, "-x", str(width), "-y", str(height), cmd)

    def keys(self, text):
        tmux("send-keys", "-t", self.s, "-l", text)

    def key(self, *names):
        tmux("send-keys", "-t", self.s, *names)

    def screen(self):
        return tmux("capture-pane", "-p", "-t", self.s)

    def lines(self):
        return self.screen().split("\n")

    def colored(self):
        return sgr_attrs(tmux("capture-pane", "-p", "-e", "-t", self.s))

    def attr(self, s):
        """The colours at the first character of s on the screen (None if s is not shown)."""
        plain, attrs = self.colored()
        j = plain.find(s)
        return attrs[j] if j >= 0 else None

    def shows(self, *parts, timeout=15.0):
        return wait(lambda: all(p in self.screen() for p in parts), timeout)

    def status(self, field):
        """The field window's status line."""
        return next((l for l in self.lines() if l.startswith("tagd://" + field)), "")

    def field_rows(self, field):
        """The screen rows of the field window (between the status line above and its own)."""
        ls = self.lines()
        end = next(i for i, l in enumerate(ls) if l.startswith("tagd://" + field))
        starts = [i for i, l in enumerate(ls[:end]) if re.match(r"^(\[No Name\]|\S+\.md|/)", l)]
        start = (max(starts) + 1) if starts else 0
        return [l for l in ls[start:end] if l.rstrip() != "~"]

    def eval(self, expr):
        """A Vim expression's value (a string), asked for in Normal mode."""
        if os.path.exists(self.out):
            os.remove(self.out)
        self.key("Escape")
        self.keys(":call writefile(split(%s, \"\\n\", 1), '%s.new') | call rename('%s.new', '%s')\r"
                  % (expr, self.out, self.out, self.out))
        wait(lambda: os.path.exists(self.out), 5)
        if not os.path.exists(self.out):
            return None
        with open(self.out, encoding="utf-8") as f:
            return f.read().rstrip("\n")

    def tags(self, field):
        v = self.eval("join(tagd#Tags('%s'), \"\\n\")" % field)
        return None if v is None else ([] if v == "" else v.split("\n"))

    def close(self):
        tmux("kill-session", "-t", self.s, check=False)


def model(keys):
    """What the same keys typed slowly give (ASCII, default separators, caseless duplicates)."""
    tags, draft = [], ""
    for k in keys:
        if k in ",\r":
            t = draft.strip()
            if t and t.lower() not in [x.lower() for x in tags]:
                tags.append(t)
            draft = ""
        elif k == "\x7f":
            if draft:
                draft = draft[:-1]
            elif tags:
                tags.pop()
        else:
            draft += k
    return tags, draft


def chips(rows):
    return re.findall(r"\[([^\]]*)\]", " ".join(rows))


def opened(vim, field):
    return vim.shows("tagd://" + field, "-- INSERT --")


# ------------------------------------------------------------------------------------------


def test_typing_paste_flash_resize():
    v = Vim("TagField t")
    if not opened(v, "t"):
        return check("terminal: :TagField opens a field window in Insert mode", False, v.screen())
    # ~70 tags with typos fixed by Backspace, Backspaces right after a comma, duplicates, spaces
    # after commas, Return, and a draft left over: one burst.
    keys = ""
    for i, w in enumerate("w%02d" % i for i in range(70)):
        if i % 7 == 3:
            keys += w + "x\x7f,"
        elif i % 11 == 5:
            keys += w + ",\x7f"
        elif i % 13 == 6:
            keys += w + "\r"
        elif i % 9 == 2:
            keys += " " + w + ", " + w.upper() + ","
        else:
            keys += w + ","
    keys += "tail"
    want, draft = model(keys)
    v.keys(keys)
    v.shows("[%s] tail" % want[-1], timeout=30)
    rows = v.field_rows("t")
    check("terminal: full-speed typing: the screen shows every chip of slow typing, in order",
          chips(rows) == want, "%r\n%s" % (chips(rows), v.screen()))
    check("terminal: chips wrap into rows within the window, the draft last",
          len(rows) > 3 and rows[-1].rstrip().endswith("] tail")
          and all(len(r) <= WIDTH for r in rows), v.screen())
    check("terminal: the tags read back equal slow typing", v.tags("t") == want)

    # A bracketed paste with separators and newlines.
    v.keys("A")
    time.sleep(0.1)
    tmux("set-buffer", "-b", "p", "--", "-- pasted one, pasted two\npasted three,")
    tmux("paste-buffer", "-p", "-b", "p", "-t", v.s)
    v.keys("end\r")
    want, _ = model(keys + "-- pasted one, pasted two\rpasted three,end\r")
    v.shows("[end]")
    check("terminal: a paste splits into tags", v.tags("t") == want, repr(want[-5:]))

    # A duplicate: its chip flashes and the status line has tagd's sentence.
    v.keys("AEND,")

    def flashed():
        a, b = v.attr("[end]"), v.attr("[pasted two]")
        return "END is already a tag" in v.status("t") and a and b and a != b
    check("terminal: a duplicate flashes its chip; the status line has tagd's announcement",
          wait(flashed, 10), v.screen())

    # A narrower window: re-laid out, the first rows give way to a count.
    tmux("resize-window", "-t", v.s, "-x", "40", "-y", str(HEIGHT))
    ok = wait(lambda: all(len(l.rstrip()) <= 40 for l in v.lines())
              and "more tags" in v.screen() and "[end]" in v.screen(), 10)
    rows = v.field_rows("t")
    more = [r for r in rows if "more tags" in r]
    shown = chips(r for r in rows if r not in more)
    hidden = int(more[0].split()[1]) if more else -1
    check("terminal: a narrower window re-wraps the chips; the first rows give way to a count",
          ok and len(rows) <= 10 and hidden + len(shown) == len(want)
          and shown == want[hidden:] and "more tags (:TagFieldTags)" in more[0],
          "hidden %d shown %d of %d\n%s" % (hidden, len(shown), len(want), v.screen()))
    v.close()


def test_placeholder_and_prompt_option():
    v = Vim("call tagd#Open('p', {'insert': 1, 'options': {'prompt': 'Labels, comma-separated'}})")
    check("terminal: an empty field shows tagd's prompt as its placeholder",
          opened(v, "p") and v.shows("Labels, comma-separated"), v.screen())
    v.keys("x")
    ok = wait(lambda: "Labels, comma" not in v.screen() and "x" in v.field_rows("p")[-1])
    v.keys("\x7f")
    check("terminal: the placeholder goes while there is text and comes back when it is gone",
          ok and v.shows("Labels, comma-separated"), v.screen())
    v.close()


def test_selection_move_edit_remove():
    v = Vim("TagField s")
    opened(v, "s")
    v.keys("a,b,c,d,")
    v.shows("[a] [b] [c] [d]")
    # <Left> at the start of the draft selects the last chip, again the one before it.
    v.key("Left", "Left")

    def selected(chip, other):
        a, b = v.attr(chip), v.attr(other)
        return a is not None and b is not None and a != b
    check("terminal: <Left> <Left> selects the chip before the last, drawn highlighted; tagd says so",
          wait(lambda: selected("[c]", "[b]") and selected("[c]", "[d]")
               and "c selected" in v.status("s")), v.screen())
    # <M-Left> moves it, <M-Right> <M-Right> moves it back and on, typed at full speed.
    v.key("M-Left")
    check("terminal: <M-Left> moves the selected chip left",
          v.shows("[a] [c] [b] [d]") and "Moved c" in v.status("s"), v.screen())
    v.key("M-Right", "M-Right")
    check("terminal: <M-Right> twice moves it to the end, still selected",
          v.shows("[a] [b] [d] [c]") and wait(lambda: selected("[c]", "[d]")), v.screen())
    # <CR> on the selected chip edits it: its text is the draft, typing goes on after it.
    v.keys("\r")
    ok = v.shows("[a] [b] [d] c") and "Editing c" in v.status("s")
    v.keys("x,")
    check("terminal: <CR> on a selected chip puts it into the draft to be edited",
          ok and v.shows("[a] [b] [d] [cx]"), v.screen())
    # <BS> removes the selected chip, <Del> too (in Normal mode as well).
    v.key("Left", "Left", "BSpace")
    ok = v.shows("[a] [b] [cx]") and "[d]" not in v.screen()
    v.key("Escape")
    v.key("0", "Left", "Left", "Left", "DC")
    check("terminal: <BS> and <Del> remove the selected chip (Insert and Normal mode)",
          ok and wait(lambda: chips(v.field_rows("s")) == ["b", "cx"]), v.screen())
    # <Right> past the last chip goes back to the draft; typing clears the selection.
    v.key("Left", "Right")
    check("terminal: <Right> past the last chip leaves the selection",
          wait(lambda: v.attr("[cx]") == v.attr("[b]") and "selected" not in v.status("s")),
          v.screen())
    v.close()


def test_undo_and_redo_are_tagds():
    v = Vim("TagField u")
    opened(v, "u")
    # The case: three lines pasted, Backspace, then u.
    tmux("set-buffer", "-b", "p", "--", "aa\nbb\ncc")
    tmux("paste-buffer", "-p", "-b", "p", "-t", v.s)
    v.keys("\x7f\x1bu")
    ok = v.shows("[aa] [bb] cc")
    time.sleep(0.3)
    check("terminal: u after a paste and a Backspace brings the Backspaced letter back, no tag twice",
          ok and chips(v.field_rows("u")) == ["aa", "bb"] and "already" not in v.screen(),
          v.screen())
    # Typing one, two, three (a burst each, as a person types), then u: the last step (adding
    # three) is undone, and the window shows it.
    v.keys("S")
    for w in ["one", "two", "three"]:
        v.keys(w + ",")
        v.shows("[%s]" % w)
    v.keys("\x1bu")
    ok = v.shows("Undid") and wait(lambda: "[three]" not in v.screen())
    rows = v.field_rows("u")
    tags = v.tags("u")
    check("terminal: u undoes the last tag change; the window shows exactly tagd's tags",
          ok and tags is not None and chips(rows) == tags and "one" in tags, v.screen())
    v.key("C-r")
    check("terminal: CTRL-R redoes it", v.shows("[three]") and "Redid" in v.status("u"),
          v.screen())
    v.close()


def test_suggestions_popup_and_tab():
    v = Vim("call tagd#Open('g', {'insert': 1, 'options': "
            "{'suggestions': ['New York', 'Newark', 'Nairobi', 'Oslo']}})")
    opened(v, "g")
    v.keys("ne")
    ok = v.shows("New York", "Newark")
    # The matched letters "Ne" are highlighted unlike the rest of the item.
    plain, attrs = v.colored()
    j = plain.find("New York")
    check("terminal: a popup lists tagd's suggestions with the matched letters highlighted",
          ok and j >= 0 and attrs[j] == attrs[j + 1] and attrs[j + 1] != attrs[j + 2],
          v.screen())
    v.keys("\t")
    check("terminal: <Tab> takes the best suggestion as a tag",
          v.shows("[New York]") and wait(lambda: "Newark" not in v.screen()), v.screen())
    # CTRL-N picks the next one; Tab typed right after the letters (at full speed) works too.
    v.keys("ne")
    v.shows("Newark")
    v.keys("\x0e\tnai\t")
    check("terminal: CTRL-N then <Tab> takes the second; <Tab> typed at full speed waits for tagd",
          v.shows("[New York] [Newark] [Nairobi]"), v.screen())
    v.close()


def test_refusals_in_tagds_words_and_select_mode():
    v = Vim("call tagd#Open('r', {'insert': 1, 'options': {'deny': ['spam'], "
            "'pattern': '[a-z]+', 'backspace': 'select'}})")
    opened(v, "r")
    v.keys("ok,spam,")
    check("terminal: a denied tag: the status line has tagd's sentence",
          v.shows("[ok]") and wait(lambda: "spam is not allowed" in v.status("r")), v.screen())
    v.keys("Bad1,")
    check("terminal: a tag refused by the pattern: tagd's sentence",
          wait(lambda: "Bad1" in v.status("r") and "empty tag" not in v.screen()), v.screen())
    # backspace "select": the first Backspace selects the last chip, shown highlighted.
    v.keys("more,\x7f")
    check("terminal: Backspace in select mode shows the chip tagd selected",
          wait(lambda: v.attr("[more]") and v.attr("[more]") != v.attr("[ok]")
               and "selected" in v.status("r")), v.screen())
    v.keys("\x7f")
    check("terminal: the next Backspace removes it", wait(lambda: "[more]" not in v.screen()),
          v.screen())
    v.close()


def test_announcements_in_the_users_language():
    v = Vim("let g:tagd_locale = 'de_DE.UTF-8'", "TagField l")
    opened(v, "l")
    v.keys("rot,")
    ok = v.shows("[rot]")
    time.sleep(0.3)
    st = v.status("l")
    check("terminal: announcements come in the user's language (initialize gets the locale)",
          ok and "rot hinzugefügt." in st, st)
    check("terminal: ... and so does tagd's prompt in an empty field",
          v.shows("[rot]") and "Add a tag" not in v.screen()
          and v.eval("tagd#State('l').prompt") not in (None, "", "Add a tag"), v.screen())
    v.close()


def test_start_up_never_blocks_and_keeps_keys():
    # A tagd that does not start until the test lets it: Vim must show the keys at once and give
    # them to tagd in order once it answers. (A fixed delay of 1 s, then 3 s, was not enough on a
    # loaded CI machine.) The field is opened as a user does, from the command line: Vim draws
    # no "-- INSERT --" for a startinsert run by a -c command until something redraws.
    slow = os.path.join(TMP, "slow-tagd")
    go = os.path.join(TMP, "slow-tagd-go")
    with open(slow, "w") as f:
        f.write("#!/bin/sh\nwhile [ ! -e %s ]; do sleep 0.05; done\nexec %s \"$@\"\n"
                % (shlex.quote(go), shlex.quote(os.environ.get("TAGD", ""))))
    os.chmod(slow, 0o755)
    v = Vim("let g:tagd_cmd = '%s'" % slow)
    v.shows("~")
    v.keys(":TagField k\r")
    opened(v, "k")
    v.keys("red\rblue,gr")
    early = v.shows("redblue,gr", timeout=3.0)
    check("terminal: keys typed while tagd starts show at once (Vim does not wait for tagd)",
          early and "[red]" not in v.screen(), v.screen())
    open(go, "w").close()
    check("terminal: ... and reach tagd in order once it answers",
          v.shows("[red] [blue] gr"), v.screen())
    v.close()


def test_wrong_command_is_named_and_restart_recovers():
    v = Vim("let g:tagd_cmd = '/nonexistent/tagd'", "TagField w")
    check("terminal: a wrong g:tagd_cmd: the field says which path and what happened",
          wait(lambda: "cannot run /nonexistent/tagd: no such file"
               in v.screen().replace("\n", "")),
          v.screen())
    v.keys("a,b")
    v.key("Escape")
    v.keys(":let g:tagd_cmd = '%s' | TagdRestart\r" % os.environ.get("TAGD", ""))
    check("terminal: :TagdRestart starts tagd; what was typed meanwhile becomes tags",
          v.shows("[a] b") and "no such file" not in v.screen(), v.screen())
    v.close()


def test_dead_tagd_is_shown_and_fields_come_back():
    v = Vim("TagField d")
    opened(v, "d")
    v.keys("one,two,thr")
    v.shows("[one] [two] thr")
    # Kill tagd (by its pid) six times in a row: the plugin gives up and says so on screen.
    for _ in range(6):
        pid = v.eval("tagd#Info().pid")
        if pid and pid != "0":
            os.kill(int(pid), 9)
        wait(lambda: v.eval("tagd#Info().pid") not in (pid, "0"), 3)
    check("terminal: tagd dying too often is said in the field",
          wait(lambda: "died 6 times" in v.screen()), v.screen())
    v.keys(":TagdRestart\r")
    v.keys("Aee,")
    check("terminal: after :TagdRestart the field is back with its tags and draft",
          v.shows("[one] [two] [three]") and "died" not in v.screen(), v.screen())
    v.close()


def test_commands_complete_field_names():
    v = Vim("call tagd#Open('alpha', {'window': 'none'})", "call tagd#Open('beta', {})")
    v.shows("tagd://beta")
    v.key("Escape")
    v.keys(":TagFieldClose al\t")
    ok = v.shows(":TagFieldClose alpha")
    v.keys("\r")
    check("terminal: commands complete field names; :TagFieldClose says what it closed",
          ok and v.shows("closed alpha"), v.screen())
    v.keys(":TagFieldClose nope\r")
    check("terminal: :TagFieldClose of an unknown field names the open ones",
          v.shows("no field named nope (open: beta)"), v.screen())
    v.close()


def test_front_matter_through_tagd():
    note = os.path.join(TMP, "lisbon.md")
    text = "---\ntitle: Trip\ntags: travel, food\n---\n\nBody.\n"
    with open(note, "w", encoding="utf-8") as f:
        f.write(text)
    v = Vim(args=shlex.quote(note))
    v.shows("title: Trip")
    v.keys(":TagFieldFrontMatter\r")
    # tagd reads `tags: travel, food` as the one tag "travel, food" (YAML's reading).
    check("terminal: :TagFieldFrontMatter opens a field named after the file with tagd's reading",
          v.shows("tagd://lisbon.md", "[travel, food]"), v.screen())
    v.keys("trams, Lisbon\r")
    ok = v.shows("[travel, food] [trams] [Lisbon]")
    check("terminal: the note's buffer shows the new tags, marked modified",
          ok and wait(lambda: "trams" in "\n".join(l for l in v.lines() if l.startswith("tags")
                                                    or l.startswith("  -"))
                      and "lisbon.md [+]" in v.screen()), v.screen())
    with open(note, encoding="utf-8") as f:
        check("terminal: the file is not written (saving stays the user's act)", f.read() == text)
    v.close()


def paste(v, text):
    tmux("set-buffer", "-b", "p", "--", text)
    tmux("paste-buffer", "-p", "-b", "p", "-t", v.s)


def test_long_sentences_whole_on_screen_and_in_messages():
    v = Vim("call tagd#Open('m', {'insert': 1, 'options': {'deny': ['spam']}})")
    opened(v, "m")
    paste(v, "alpha,beta,ALPHA,BETA,spam,")
    v.shows("[alpha] [beta]")
    said = None
    if wait(lambda: "spam" in (v.eval("tagd#State('m').announcement") or "")):
        said = v.eval("tagd#State('m').announcement")
        v.keys("A")

    def squeeze(t):
        return re.sub(r"\s+", "", t)
    check("terminal: a sentence longer than the status line is on screen whole",
          said and len(said) > WIDTH and wait(lambda: squeeze(said) in squeeze(v.screen())),
          "%r\n%s" % (said, v.screen()))
    messages = v.eval("execute('messages')") or ""
    check("terminal: tagd's sentences are kept in :messages, once each",
          said and messages.count(said) == 1 and messages.count("Added alpha and beta.") == 1
          and "Press ENTER" not in v.screen(), "%r\n%s" % (messages, v.screen()))
    v.close()


def test_paste_of_100_tags_is_one_step():
    v = Vim("TagField h", width=80)
    opened(v, "h")
    want = ["t%03d" % i for i in range(100)]
    paste(v, "\n".join(want) + "\n")
    ok = wait(lambda: v.tags("h") == want, 20)
    if ok:
        v.keys("A")
    messages = v.eval("execute('messages')") or ""
    check("terminal: a bracketed paste of 100 tags: every tag, announced once",
          ok and "Added 100 tags." in v.screen() and messages.count("Added") == 1,
          "%r\n%s" % (messages[-300:], v.screen()))
    v.key("Escape")
    v.keys("u")
    check("terminal: ... and one undo step takes all 100 back",
          wait(lambda: v.tags("h") == []), repr(v.tags("h")))
    v.close()


def test_readme_call_example_works_at_a_legacy_call():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    calls = [l for b in re.findall(r"```vim\n(.*?)```", readme, re.S) for l in b.split("\n")
             if l.startswith(":call tagd#Open(")]
    if not calls:
        return check("terminal: the README's :call tagd#Open(...) example works as typed", False,
                     "no ```vim block with a line starting :call tagd#Open( in the README")
    v = Vim()
    v.shows("~")
    v.keys(calls[0] + "\r")
    ok = opened(v, "labels")
    v.keys("bug, docs, wontfix, Bug, fe")
    check("terminal: the README's :call tagd#Open(...) example works as typed",
          ok and v.shows("[bug] [docs] fe", "feature") and "E1" not in v.screen(), v.screen())
    v.close()


def test_help_after_the_readmes_package_recipe():
    home = os.path.join(TMP, "home")
    start = os.path.join(home, ".vim", "pack", "tagd", "start")
    os.makedirs(start, exist_ok=True)
    os.symlink(ROOT, os.path.join(start, "tagd"))
    with open(os.path.join(home, ".vimrc"), "w") as f:
        f.write("set nocompatible encoding=utf-8\n")
    tags = os.path.join(ROOT, "doc", "tags")
    if os.path.exists(tags):
        os.remove(tags)   # as in a fresh checkout
    s = "pk"
    tmux("new-session", "-d", "-s", s, "-x", str(WIDTH), "-y", str(HEIGHT),
         "HOME=%s LANG=C.UTF-8 TAGD=%s vim -i NONE -n" % (shlex.quote(home),
                                                         shlex.quote(os.environ.get("TAGD", ""))))
    wait(lambda: "~" in tmux("capture-pane", "-p", "-t", s))
    tmux("send-keys", "-t", s, "-l", ":help tagd\r")
    ok = wait(lambda: "tagd.txt" in tmux("capture-pane", "-p", "-t", s), 5)
    check("terminal: the README's package recipe: :help tagd works with no :helptags by hand",
          ok, tmux("capture-pane", "-p", "-t", s))
    tmux("kill-session", "-t", s, check=False)


def note_file(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def test_org_filetags_and_orgs_own_pattern():
    note = note_file("trip.org", "#+TITLE: Trip\n\n* Lisbon\nText.\n")
    v = Vim(args=shlex.quote(note), width=80)
    v.shows("#+TITLE: Trip")
    v.keys(":TagFieldFrontMatter\r")
    opened(v, "trip.org")
    v.keys("travel,x-y,")
    check("terminal: Org: a tag Org cannot hold is refused while typing, in tagd's words",
          v.shows("[travel]") and wait(lambda: "x-y does not have the form" in v.screen())
          and "[x-y]" not in v.screen(), v.screen())
    v.keys("food,")
    check("terminal: Org: :TagFieldFrontMatter edits #+FILETAGS: (created), never front matter",
          v.shows("[travel] [food]", "#+FILETAGS: :travel:food:") and "---" not in v.screen(),
          v.screen())
    v.key("Escape")
    v.keys(":wall\r")
    want = "#+TITLE: Trip\n#+FILETAGS: :travel:food:\n\n* Lisbon\nText.\n"
    check("terminal: Org: the saved file", wait(lambda: read(note) == want), repr(read(note)))
    v.close()


def test_org_heading_tags():
    note = note_file("days.org", "#+FILETAGS: :trip:\n* Lisbon :food:\nText.\n* Porto\nMore.\n")
    v = Vim(args=shlex.quote(note), width=80)
    v.shows("* Porto")
    v.keys("5G:TagFieldOrgHeading\r")
    opened(v, "days.org:4")
    v.keys("wine,x-y,port ")
    ok = v.shows("[wine] [port]") and "[x-y]" not in v.screen()
    v.key("Escape")
    v.key("C-w", "k")
    v.keys("ggOnew first line\x1b3G:TagFieldOrgHeading\r")
    check("terminal: :TagFieldOrgHeading edits the heading at the cursor; another heading, another field",
          ok and opened(v, "days.org:3") and v.shows("[food]"), v.screen())
    v.keys("fish,")
    v.shows("[food] [fish]")
    v.key("Escape")
    v.keys(":TagField days.org:4\r")
    v.keys("cheap,")
    v.shows("[wine] [port] [cheap]")
    v.key("Escape")
    v.keys(":wall\r")

    def saved():
        ls = read(note).split("\n")
        return (len(ls) == 7 and ls[0] == "new first line" and ls[1] == "#+FILETAGS: :trip:"
                and re.match(r"^\* Lisbon +:food:fish:$", ls[2])
                and re.match(r"^\* Porto +:wine:port:cheap:$", ls[4]) and ls[3] == "Text."
                and ls[5] == "More.")
    check("terminal: the headings' tags in the saved file (the heading followed when a line went above it)",
          wait(saved), repr(read(note)))
    v.close()


def test_failed_document_write_is_shown_and_no_chip_left():
    note = note_file("broken.md", "---\ntags: [a, b]\n---\nBody.\n")
    v = Vim(args=shlex.quote(note), width=80)
    v.shows("tags: [a, b]")
    v.keys(":TagFieldFrontMatter\r")
    opened(v, "broken.md")
    v.shows("[a] [b]")
    v.key("Escape")
    v.key("C-w", "k")
    v.keys("2G$x")   # by hand: the `[` never closed
    v.shows("tags: [a, b\n")
    v.key("C-w", "j")
    v.keys("Ac,")
    check("terminal: a document read/write tagd refuses is shown on screen, and the chip the note lacks goes",
          wait(lambda: "is never closed by" in v.screen().replace("\n", "") and "[a] [b]" in v.screen()
               and "[c]" not in v.screen()), v.screen())
    v.close()


def test_hand_edit_of_the_tags_is_merged():
    note = note_file("hand.md", "---\ntags: [a, b]\n---\nBody.\n")
    v = Vim(args=shlex.quote(note), width=80)
    v.shows("tags: [a, b]")
    v.keys(":TagFieldFrontMatter\r")
    opened(v, "hand.md")
    v.shows("[a] [b]")
    v.key("Escape")
    v.key("C-w", "k")
    v.keys("2G0f[ldf f]i, c\x1b")   # by hand: a removed, c added
    v.shows("tags: [b, c]")
    v.key("C-w", "j")
    v.keys("Ad,")
    # c (merged when the field's window is entered) and d (typed at once) in either order.
    ok = wait(lambda: any("[%s] [%s] [%s]" % o in v.screen() and "tags: [%s, %s, %s]" % o in v.screen()
                          for o in [("b", "c", "d"), ("b", "d", "c")]))
    v.key("Escape")
    v.keys(":wall\r")
    check("terminal: a hand edit of the note's tags while the field is open is merged, never lost",
          ok and wait(lambda: read(note) in ("---\ntags: [b, c, d]\n---\nBody.\n",
                                             "---\ntags: [b, d, c]\n---\nBody.\n")),
          repr(read(note)) + "\n" + v.screen())
    v.close()


def test_vault_suggestions_tags_and_rename():
    vault = os.path.join(TMP, "vault")
    os.makedirs(vault, exist_ok=True)
    note_file("vault/a.md", "---\ntags: [travel, food]\n---\nA.\n")
    note_file("vault/b.md", "---\ntags: [travel]\n---\nB.\n")
    note_file("vault/c.org", "* Trip :travel:\nC.\n")
    new = note_file("vault/new.md", "---\ntitle: New\n---\nText.\n")
    v = Vim("let g:tagd_vaults = ['%s']" % vault, args=shlex.quote(new), width=80, height=24)
    v.shows("title: New")
    v.keys(":TagFieldFrontMatter\r")
    opened(v, "new.md")
    v.keys("tr")
    ok = v.shows("travel")
    v.keys("\t")
    check("terminal: a field on a note of the vault suggests the vault's tags",
          ok and v.shows("[travel]"), v.screen())
    v.key("Escape")
    v.key("C-w", "k")
    v.keys(":TagdTags\r")
    check("terminal: :TagdTags lists the vault's tags with their notes, most used first",
          v.shows("3  travel", "1  food") and v.screen().find("3  travel") < v.screen().find("1  food"),
          v.screen())
    v.keys("q")
    v.keys(":TagdRename travel trip\r")
    ok = v.shows("renamed travel to trip in 4 notes", "  - trip")
    check("terminal: :TagdRename: the loaded note's buffer (not written) and the other notes' files",
          ok and read(os.path.join(vault, "a.md")) == "---\ntags: [trip, food]\n---\nA.\n"
          and read(os.path.join(vault, "b.md")) == "---\ntags: [trip]\n---\nB.\n"
          and re.match(r"^\* Trip +:trip:\nC\.\n$", read(os.path.join(vault, "c.org")))
          and read(new) == "---\ntitle: New\n---\nText.\n",
          v.screen() + repr([read(os.path.join(vault, n)) for n in ("a.md", "b.md", "c.org")]))
    v.key("C-w", "j")
    check("terminal: ... and the note's field reads it back: the chip is renamed too",
          v.shows("[trip]"), v.screen())
    v.close()


def test_narrow_chip_label_is_tagds():
    v = Vim("TagField n", width=24)
    opened(v, "n")
    v.keys("a-very-long-tag-that-cannot-fit,")
    check("terminal: a chip wider than the window shows tagd's cut label",
          wait(lambda: any(l.startswith("[a-very-long") and "…]" in l for l in v.lines())),
          v.screen())
    v.close()


def main():
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    tests = [f for n, f in globals().items() if n.startswith("test_") and callable(f)]
    try:
        for t in tests:
            if only and not re.search(only, t.__name__):
                continue
            try:
                t()
            except Exception as e:  # a test that throws fails; the others still run
                check("terminal: %s" % t.__name__, False, "exception %r" % e)
            tmux("kill-server", check=False)
    finally:
        tmux("kill-server", check=False)
        shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    main()
    sys.exit(0 if results and all(results) else 1)
