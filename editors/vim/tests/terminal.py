#!/usr/bin/env python3
"""Real-terminal test of the Vim plugin: Vim runs in tmux (a private tmux server), keys are
typed at full speed (one send-keys of the whole string), and the result is checked twice: the
tags read back from Vim, and the screen as tmux shows it (capture-pane).

Usage: tests/terminal.py   (env TAGD: the tagd binary; prints PASS/FAIL lines)
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
results = []


def tmux(*args, check=True):
    return subprocess.run(["tmux", "-u", "-L", SOCK, "-f", "/dev/null", *args], check=check,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True).stdout


def screen(session="t"):
    return tmux("capture-pane", "-p", "-t", session).split("\n")


def wait(cond, timeout=20.0):
    """Poll cond() until true; timeout is an upper bound only."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return cond()


def check(name, ok, detail=""):
    results.append(ok)
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else ": " + detail), flush=True)


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


def vim_state(out):
    """Ask Vim (in Normal mode) for the tags and the buffer; True once the file appeared."""
    if os.path.exists(out):
        os.remove(out)
    tmux("send-keys", "-t", "t", "-l",
         ":call writefile(tagd#Tags('t') + ['--'] + getbufline('tagd://t', 1, '$'), '%s.new')"
         " | call rename('%s.new', '%s')\r" % (out, out, out))
    wait(lambda: os.path.exists(out), 5)
    if not os.path.exists(out):
        return None
    lines = open(out, encoding="utf-8").read().split("\n")[:-1]
    i = lines.index("--")
    return lines[:i], lines[i + 1:]


def field_rows(scr):
    """The screen rows of the field window: between the window above's status line and the
    field's own status line (tagd://t), without "~" filler lines."""
    end = next(i for i, l in enumerate(scr) if l.startswith("tagd://"))
    start = max(i for i, l in enumerate(scr[:end]) if l.startswith("[No Name]")
                or l.startswith(os.path.sep)) + 1
    return [l for l in scr[start:end] if l.rstrip() != "~"]


def main():
    tagd = os.environ.get("TAGD", "")
    tmp = tempfile.mkdtemp()
    out = os.path.join(tmp, "state")
    vimcmd = ("LANG=C.UTF-8 TAGD=%s vim -Nu NONE -i NONE --cmd 'set encoding=utf-8' --cmd %s "
              "--cmd 'let g:tagd_flash_ms = 5000' "
              "-c 'runtime plugin/tagd.vim' -c 'TagField t'") % (
                  shlex.quote(tagd), shlex.quote("set rtp^=" + ROOT.replace(" ", "\\ ")))
    tmux("new-session", "-d", "-s", "t", "-x", str(WIDTH), "-y", str(HEIGHT), vimcmd)
    try:
        ok = wait(lambda: any(l.startswith("tagd://t") for l in screen())
                  and "-- INSERT --" in "\n".join(screen()))
        check("terminal: :TagField opens a field window in Insert mode", ok, "\n".join(screen()))
        if not ok:
            return

        # 1. Full speed: ~70 tags with typos fixed by Backspace, Backspaces on an empty draft
        #    right after a comma, duplicates, spaces after commas, Return, and a draft left over.
        words = ["w%02d" % i for i in range(70)]
        keys = ""
        for i, w in enumerate(words):
            if i % 7 == 3:
                keys += w + "x\x7f,"          # a typo fixed
            elif i % 11 == 5:
                keys += w + ",\x7f"           # Backspace right after the comma: removes w
            elif i % 13 == 6:
                keys += w + "\r"              # Return
            elif i % 9 == 2:
                keys += " " + w + ", " + w.upper() + ","   # a caseless duplicate
            else:
                keys += w + ","
        keys += "tail"
        want_tags, want_draft = model(keys)
        tmux("send-keys", "-t", "t", "-l", keys)
        # Wait until the screen has settled on the last chip and the draft.
        last_chip = "[%s]" % want_tags[-1]
        wait(lambda: any(l.rstrip().endswith("tail") for l in screen())
             and last_chip in "\n".join(screen()), 30)
        scr = screen()
        tmux("send-keys", "-t", "t", "Escape")
        time.sleep(0.2)
        state = vim_state(out)
        check("terminal: full-speed typing gives the tags of slow typing",
              state is not None and state[0] == want_tags,
              "got %r\nwant %r" % (state and state[0], want_tags))
        check("terminal: the buffer holds exactly the draft",
              state is not None and state[1] == [want_draft], "got %r" % (state and state[1],))

        # The screen: chips in order, each row within the window, the draft after the last chip.
        rows = field_rows(scr)
        shown = re.findall(r"\[([^\]]*)\]", " ".join(rows))
        check("terminal: the screen shows every chip, in order", shown == want_tags,
              "screen chips %r\n%s" % (shown, "\n".join(scr)))
        check("terminal: chips wrap into several rows, draft last",
              len(rows) > 3 and rows[-1].rstrip().endswith("] tail")
              and all(len(r) <= WIDTH for r in rows), "\n".join(scr))

        # 2. A bracketed paste (tmux paste-buffer -p) with separators and newlines.
        tmux("send-keys", "-t", "t", "-l", "A")
        time.sleep(0.2)
        tmux("set-buffer", "-b", "p", "--", "-- pasted one, pasted two\npasted three,")
        tmux("paste-buffer", "-p", "-b", "p", "-t", "t")
        tmux("send-keys", "-t", "t", "-l", "end\r")
        want2, _ = model(keys + "-- pasted one, pasted two\rpasted three,end\r")
        wait(lambda: "[end]" in "\n".join(screen()), 20)
        tmux("send-keys", "-t", "t", "Escape")
        time.sleep(0.2)
        state = vim_state(out)
        check("terminal: a paste splits into tags", state is not None and state[0] == want2,
              "got %r\nwant %r" % (state and state[0][-5:], want2[-5:]))

        # A duplicate: its chip flashes (drawn with another highlight) and the field's status
        # line says why.
        tmux("send-keys", "-t", "t", "-l", "AEND,")

        def attr_at(text, chip):
            """The colours and attributes (SGR) in effect at the first character of chip in a
            capture-pane -e."""
            attrs, plain, i = [], [], 0
            st = {}
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
                    elif p == 39 or p == 49:
                        st.pop("fg" if p == 39 else "bg", None)
                    elif 30 <= p <= 37 or 90 <= p <= 97:
                        st["fg"] = p
                    elif 40 <= p <= 47 or 100 <= p <= 107:
                        st["bg"] = p
                    else:
                        st["a%d" % p] = True
                    k += 1
            j = "".join(plain).find(chip)
            return attrs[j] if j >= 0 else None

        def flashed():
            colored = tmux("capture-pane", "-p", "-e", "-t", "t")
            a, b = attr_at(colored, "[end]"), attr_at(colored, "[pasted two]")
            return (any(l.startswith("tagd://t") and "END is already a tag" in l for l in screen())
                    and a is not None and b is not None and a != b)
        check("terminal: a duplicate flashes its chip and the status line says why",
              wait(flashed, 10), "\n".join(screen()))
        wait(lambda: not flashed(), 10)

        # Select the chip before "end" from the keyboard (Shift-Tab twice), see it highlighted,
        # remove it with CTRL-X.
        tmux("send-keys", "-t", "t", "BTab", "BTab")

        def selected():
            colored = tmux("capture-pane", "-p", "-e", "-t", "t")
            a, b = attr_at(colored, "[pasted three]"), attr_at(colored, "[pasted two]")
            return a is not None and b is not None and a != b
        check("terminal: Shift-Tab selects a chip, drawn highlighted", wait(selected, 10),
              "\n".join(screen()))
        tmux("send-keys", "-t", "t", "C-x")
        ok = wait(lambda: "[pasted three]" not in "\n".join(screen())
                  and "[pasted two] [end]" in "\n".join(screen()), 10)
        tmux("send-keys", "-t", "t", "Escape")
        time.sleep(0.2)
        state = vim_state(out)
        want2.remove("pasted three")
        check("terminal: CTRL-X removes the selected chip", ok and state is not None
              and state[0] == want2, "\n".join(screen()))

        # "." repeats typed at full speed, then a comma: one tag of all the repeated text.
        tmux("send-keys", "-t", "t", "-l", "Axy\x1b....A,\x1b")
        want2.append("xyxyxyxyxy")
        ok = wait(lambda: "[xyxyxyxyxy]" in "\n".join(screen()), 10)
        state = vim_state(out)
        check("terminal: . repeats at full speed reach tagd", ok and state is not None
              and state[0] == want2 and state[1] == [""],
              "%r\n%s" % (state and state[0][-3:], "\n".join(screen())))

        # 3. Resizing the terminal re-lays the chips out for the new width.
        tmux("resize-window", "-t", "t", "-x", "40", "-y", str(HEIGHT))
        def rewrapped():
            scr = screen()
            return (all(len(l.rstrip()) <= 40 for l in scr) and "[end]" in "\n".join(scr)
                    and any("more tags" in l for l in scr))
        ok = wait(rewrapped, 10)
        scr = screen()
        rows40 = field_rows(scr)
        more = [l for l in rows40 if "more tags" in l]
        shown = re.findall(r"\[([^\]]*)\]", " ".join(r for r in rows40 if r not in more))
        hidden = int(more[0].split()[1]) if more else -1
        check("terminal: a narrower window re-wraps the chips; the first rows give way to a count",
              ok and len(rows40) <= 10 and hidden + len(shown) == len(want2)
              and shown == want2[hidden:] and all(len(r.rstrip()) <= 40 for r in rows40),
              "hidden %d shown %d of %d\n%s" % (hidden, len(shown), len(want2), "\n".join(scr)))
        with open(os.path.join(tmp, "capture.txt"), "w") as f:
            f.write("\n".join(scr))
        if os.environ.get("TAGD_VIM_CAPTURE"):
            with open(os.environ["TAGD_VIM_CAPTURE"], "w") as f:
                f.write("\n".join(scr) + "\n")
        front_matter(tmp)
    finally:
        tmux("kill-server", check=False)
        shutil.rmtree(tmp, ignore_errors=True)


def front_matter(tmp):
    """A user edits the tags of a note's front matter, typing at full speed."""
    note = os.path.join(tmp, "note.md")
    with open(note, "w", encoding="utf-8") as f:
        f.write("---\ntitle: Groceries\ntags: [home]\n---\n\nMilk, eggs.\n")
    vimcmd = ("LANG=C.UTF-8 TAGD=%s vim -Nu NONE -i NONE --cmd 'set encoding=utf-8' --cmd %s "
              "-c 'runtime plugin/tagd.vim' %s") % (
                  shlex.quote(os.environ.get("TAGD", "")),
                  shlex.quote("set rtp^=" + ROOT.replace(" ", "\\ ")), shlex.quote(note))
    tmux("new-session", "-d", "-s", "n", "-x", str(WIDTH), "-y", str(HEIGHT), vimcmd)
    wait(lambda: "title: Groceries" in "\n".join(screen("n")))
    tmux("send-keys", "-t", "n", "-l", ":TagFieldFrontMatter\r")
    wait(lambda: "-- INSERT --" in "\n".join(screen("n")))
    tmux("send-keys", "-t", "n", "-l", "shopping, Home,weekly plan,todo\x7f\x7f\x7f\x7fmilk: 2l\r")
    want = 'tags: [home, shopping, weekly plan, "milk: 2l"]'
    ok = wait(lambda: want in open(note, encoding="utf-8").read(), 20)
    check("terminal: :TagFieldFrontMatter writes the tags typed at full speed to the file",
          ok, open(note, encoding="utf-8").read())
    ok = wait(lambda: want in "\n".join(screen("n"))
              and "[home] [shopping] [weekly plan] [milk: 2l]" in "\n".join(screen("n")), 10)
    check("terminal: the note shows the new front matter, the field its chips", ok,
          "\n".join(screen("n")))
    with open(note, encoding="utf-8") as f:
        rest = f.read().split("\n")
    check("terminal: the rest of the note is untouched",
          rest == ["---", "title: Groceries", want, "---", "", "Milk, eggs.", ""], repr(rest))
    if os.environ.get("TAGD_VIM_CAPTURE"):
        with open(os.environ["TAGD_VIM_CAPTURE"] + ".frontmatter", "w") as f:
            f.write("\n".join(screen("n")) + "\n")


if __name__ == "__main__":
    main()
    sys.exit(0 if all(results) else 1)
