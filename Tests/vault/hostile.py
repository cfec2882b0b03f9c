"""A hostile vault for `tagd rename`, and the check of what the rename wrote.

    hostile.py generate DIR...         writes the vault into each DIR (new) and DIR.json, its manifest
    hostile.py verify DIR FROM TO      checks DIR after `tagd rename FROM TO DIR`; prints "ok" or
                                       the problems, one per line, and exits 1 on any
    hostile.py unchanged DIR           checks that every note is still as generated
    hostile.py verify-all CASES.json   verify (or unchanged, for refused renames) of many vaults

Each note is written from parts: literal text and tag slots (a tag, where it is written and how
it is spelled there). After a rename, a note without an affected tag must be byte-identical and
not rewritten (same inode and modification time); a note with one must match its parts with every
literal byte unchanged and each affected slot now spelling the new tag (read by PyYAML, tomllib
or taken as is); and the whole note must read back, with PyYAML, ruamel.yaml, tomllib or Emacs's
org-element, as exactly the renamed lists (a list that already held the new tag loses the old
entry: a merge; then only the lists are compared, as entries and separators are removed).
Runs in Debian's /usr/bin/python3 (python3-yaml, python3-ruamel.yaml) with emacs on PATH.
"""
import json, os, re, subprocess, sys, tomllib, unicodedata
import yaml
from ruamel.yaml import YAML

ruamel = YAML(typ="safe", pure=True)
# A decomposed spelling (e + U+0301) in Markdown; Org notes keep to precomposed ones, as TagCore's
# Org reader does not yet read a heading tag holding a combining mark (Org itself does).
NFD_CAFE = unicodedata.normalize("NFD", "café")
assert NFD_CAFE != "café"
HERE = os.path.dirname(os.path.abspath(__file__))


def slot(place, tag, text=None, lst=0):
    return {"place": place, "tag": tag, "text": tag if text is None else text, "list": lst}


def notes():
    y, t, o, i = "yaml", "toml", "org", "inline"
    return {
        "flow.md": [
            "---\ntitle: \"a: b\"\ntags: [", slot(y, "Work"), ", ", slot(y, "yes", "'yes'"), ", ",
            slot(y, "null", '"null"'), ", ", slot(y, "1.0", "'1.0'"), ", ", slot(y, "a: b", '"a: b"'),
            ", ", slot(y, "#x", "'#x'"), ", ", slot(y, "-x", "'-x'"), ", ", slot(y, "it's", '"it\'s"'),
            ", ", slot(y, 'say "hi"', "'say \"hi\"'"), ", ", slot(y, "🚀launch"), "]\n---\nBody #",
            slot(i, "work"), " and #", slot(i, "idea"), ".\n",
        ],
        "crlf-block.md": [
            "---\r\ntitle: x\r\ntags:\r\n  - ", slot(y, "work"), "\r\n  - ", slot(y, NFD_CAFE),
            "\r\n  - ", slot(y, "a/b"), "\r\n---\r\nText #", slot(i, "Work/meeting"),
            " here\r\n```\r\n#work in a fence\r\n```\r\nand `#work` in code\r\n~~~\r\n#null\r\n~~~\r\n",
        ],
        "bom.md": [
            "\ufeff---\ntags: [", slot(y, "WORK"), ", ", slot(y, "café"), "]\n---\n# Heading, not a tag\n#",
            slot(i, "café"), " starts a line\n",
        ],
        "toml.md": [
            "+++\ntitle = \"t\"\ntags = [", slot(t, "work", '"work"'), ", ", slot(t, "null", '"null"'), ", ",
            slot(t, "a: b", '"a: b"'), ", ", slot(t, "-x", '"-x"'), "]\n+++\nBody #", slot(i, "null"), " text\n",
        ],
        "none.md": ["---\ntags: [other, thing]\n---\nNothing to rename: a#work, `#work`.\n"],
        "merge.md": ["---\ntags: [", slot(y, "work"), ", ", slot(y, "yes", "'yes'"), ", ",
                     slot(y, "WORK"), "]\n---\n"],
        "nested.md": [
            "---\ntags: [", slot(y, "a"), ", ", slot(y, "a/b"), ", ", slot(y, "A/c"), ", ",
            slot(y, "ab"), "]\n---\n#", slot(i, "a/b/c"), " body #", slot(i, "abc"), "\n",
        ],
        "fragments.md": [
            "See http://x.com/#work and a#work, &#123; and \\#work and #123\n#", slot(i, "work"),
            " at a line start\n    #", slot(i, "Work"), " after spaces is a tag too\n",
        ],
        "deep/dir/filetags.org": [
            "#+FILETAGS: :", slot(o, "work", lst=0), ":", slot(o, "café", lst=0),
            ":\n* Heading", gap("  "), ":", slot(o, "yes", lst=1), ":", slot(o, "null", lst=1),
            ":\nBody #work :not:tags:\n** Sub", gap(" "), ":", slot(o, "Work", lst=2), ":",
            slot(o, "a_b", lst=2), ":\n",
        ],
        "crlf.org": ["* TODO Task", gap("          "), ":", slot(o, "work"), ":\r\n* Other", gap(" "), ":",
                     slot(o, "x", lst=1), ":\r\n"],
        "upper.org": ["#+title: T\n* H", gap(" "), ":", slot(o, "café"), ":", slot(o, "WORK"), ":\n"],
        "plain.org": ["* Nothing :other:\n"],
    }


def gap(text):
    """The blanks before an Org heading's tags: a rename may change them to keep the tags'
    end column (Org's alignment)."""
    return {"gap": text}


def key(tag):
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", tag).casefold())


def renamed(tag, old, new):
    """The new text of `tag` when `old` becomes `new`, or None when it is not renamed."""
    if key(tag) == key(old):
        return new
    if key(tag).startswith(key(old) + "/"):
        return new + tag[len(old):]
    return None


def expected_lists(parts, old, new):
    """Each list (by place and list number) before and after the rename."""
    lists = {}
    for p in parts:
        if isinstance(p, dict) and "tag" in p and p["place"] != "inline":
            lists.setdefault((p["place"], p["list"]), []).append(p["tag"])
    result = {}
    for where, tags in lists.items():
        kept_keys = {key(t) for t in tags if renamed(t, old, new) is None}
        out, seen = [], set()
        for t in tags:
            r = renamed(t, old, new)
            if r is None:
                out.append(t)
            elif key(r) not in kept_keys and key(r) not in seen:
                seen.add(key(r))
                out.append(r)
        result[where] = (tags, out)
    return result


def render(parts):
    return "".join(p if isinstance(p, str) else p.get("text", p.get("gap")) for p in parts)


def generate(root):
    manifest = {}
    for name, parts in notes().items():
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(render(parts))
    for name in notes():
        st = os.stat(os.path.join(root, name))
        manifest[name] = {"inode": st.st_ino, "mtime": st.st_mtime_ns}
    with open(root + ".json", "w") as f:
        json.dump(manifest, f)


def front(text, fence):
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = re.split(r"\r\n|\r|\n", text)
    assert lines[0] == fence, "no front matter"
    end = lines.index(fence if fence == "+++" else "---", 1)
    return "\n".join(lines[1:end]) + "\n"


ORG_CACHE = {}


def org_tags(paths):
    missing = [p for p in paths if p not in ORG_CACHE]
    if missing:
        ORG_CACHE.update(org_tags_now(missing))
    return ORG_CACHE


def org_tags_now(paths):
    out = os.path.join(os.path.dirname(paths[0]), ".org-tags.json")
    subprocess.run(["emacs", "--batch", "-Q", "-l", os.path.join(HERE, "org-tags.el"), out] + paths,
                   check=True, capture_output=True)
    result = {}
    with open(out, encoding="utf-8") as f:
        for line in f:
            doc = json.loads(line)
            result[doc["file"]] = doc
    os.remove(out)
    return result


def slot_reads_as(place, text, value):
    if place == "yaml":
        return yaml.safe_load("[" + text + "]") == [value] and ruamel.load("[" + text + "]") == [value]
    if place == "toml":
        return tomllib.loads("x = " + text)["x"] == value
    return text == value


def verify(root, old, new, report=True):
    problems = []
    manifest = json.load(open(root + ".json"))
    all_notes = notes()
    org_read = org_tags([os.path.join(root, n) for n in all_notes if n.endswith(".org")])
    for name, parts in all_notes.items():
        path = os.path.join(root, name)
        data = open(path, "rb").read()
        text = data.decode("utf-8")
        affected = [p for p in parts if isinstance(p, dict) and "tag" in p
                    and renamed(p["tag"], old, new) is not None]
        st = os.stat(path)
        if not affected:
            if data != render(parts).encode("utf-8"):
                problems.append(f"{name}: changed, though it carries no {old!r}")
            if (st.st_ino, st.st_mtime_ns) != (manifest[name]["inode"], manifest[name]["mtime"]):
                problems.append(f"{name}: rewritten (inode or mtime changed), though it carries no {old!r}")
            continue
        lists = expected_lists(parts, old, new)
        merged = any(len(after) < len(before) for before, after in lists.values())
        if not merged:
            # Every byte outside the affected tags' spans is unchanged.
            pattern = "".join(
                "[ \t]+" if isinstance(p, dict) and "gap" in p
                else re.escape(p if isinstance(p, str) else p["text"])
                if isinstance(p, str) or renamed(p["tag"], old, new) is None else "(.*?)"
                for p in parts)
            match = re.fullmatch(pattern, text, re.S)
            if not match:
                problems.append(f"{name}: bytes outside the renamed tags changed: {text!r}")
            else:
                for group, p in zip(match.groups(), affected):
                    want = renamed(p["tag"], old, new)
                    if not slot_reads_as(p["place"], group, want):
                        problems.append(f"{name}: {p['tag']!r} became {group!r}, not {want!r}")
        # The whole note reads back as the renamed lists.
        for (place, number), (_, after) in lists.items():
            try:
                if place == "yaml":
                    fm = front(text, "---")
                    for reader, got in (("PyYAML", yaml.safe_load(fm)), ("ruamel.yaml", ruamel.load(fm))):
                        if got.get("tags") != after:
                            problems.append(f"{name}: {reader} reads {got.get('tags')!r}, expected {after!r}")
                elif place == "toml":
                    got = tomllib.loads(front(text, "+++")).get("tags")
                    if got != after:
                        problems.append(f"{name}: tomllib reads {got!r}, expected {after!r}")
                else:
                    doc = org_read[path]
                    has_filetags = render(parts).startswith("#+FILETAGS:")
                    groups = ([doc["filetags"]] if has_filetags else []) + doc["headings"]
                    got = groups[number] if number < len(groups) else None
                    if got != after:
                        problems.append(f"{name}: org-element reads {got!r} for list {number}, expected {after!r}")
            except Exception as e:
                problems.append(f"{name}: cannot be read back: {e!r}")
    if report:
        print("\n".join(problems) if problems else "ok")
    return problems


def unchanged(root, report=True):
    problems = []
    manifest = json.load(open(root + ".json"))
    for name, parts in notes().items():
        path = os.path.join(root, name)
        st = os.stat(path)
        if open(path, "rb").read() != render(parts).encode("utf-8"):
            problems.append(f"{name}: changed")
        if (st.st_ino, st.st_mtime_ns) != (manifest[name]["inode"], manifest[name]["mtime"]):
            problems.append(f"{name}: rewritten")
    if report:
        print("\n".join(problems) if problems else "ok")
    return problems


def verify_all(cases_file):
    """Checks every case of a JSON list [{dir, from, to, accepted}] (Emacs started once)."""
    cases = json.load(open(cases_file))
    org_tags([os.path.join(c["dir"], n) for c in cases for n in notes() if n.endswith(".org")])
    bad = False
    for c in cases:
        problems = verify(c["dir"], c["from"], c["to"], False) if c["accepted"] else unchanged(c["dir"], False)
        for p in problems:
            bad = True
            print(f"{c['from']} -> {c['to']}: {p}")
    if not bad:
        print("ok")
    return not bad


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "generate":
        for root in sys.argv[2:]:
            generate(root)
    elif command == "verify":
        sys.exit(1 if verify(sys.argv[2], sys.argv[3], sys.argv[4]) else 0)
    elif command == "unchanged":
        sys.exit(1 if unchanged(sys.argv[2]) else 0)
    elif command == "verify-all":
        sys.exit(0 if verify_all(sys.argv[2]) else 1)
