"""Output folders that never touch a user's file: the output manifest.

Every run records the files it wrote (relative path, size, SHA-256) in
``.explain-sudoku-manifest.json`` inside the output folder. The next run
into that folder replaces or removes only files listed there and unchanged
since; every other file or folder is foreign and is left alone:

- a folder holding foreign files is refused unless ``--force``; with
  ``--force`` we write beside them, still never over them;
- a foreign file at a name we would write is an error, with or without
  ``--force`` (it is never overwritten);
- a listed file the user changed since (other size or hash, or another link
  to it) is foreign too.

Nothing is removed before every name this run writes has been checked: the
previous run's files are replaced as the new ones are written, and those the
new run does not write again are removed only when it completes. A run that
stops early (an error, Ctrl-C, ``kill``) keeps the previous files it did not
replace, and records in the manifest every file it wrote, even one cut short:
the next run into the folder replaces them all, with or without ``--force``.
A run killed outright (SIGKILL, a power cut) cannot do that: so each name is
appended to ``.explain-sudoku-manifest.claims`` when it is claimed, before
its file is written; the next run takes the files listed there as ours (it
lists them in the manifest, with their size and hash, and removes the list).

The names we write come from the exporters' declarations (render.export)
and are checked (``guard``) before anything is written.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from explainer.model.grid import one_line

MANIFEST = ".explain-sudoku-manifest.json"
CLAIMS = ".explain-sudoku-manifest.claims"  # names claimed by a run still writing (one JSON string a line)
CLAIMS_MARK = '"sudoku-explainer/claims@1"\n'  # the first line of a claims file of ours
FORMAT = "sudoku-explainer/manifest@1"


class OutputError(Exception):
    """An output folder or file that cannot or may not be written (one-line message)."""

    def __str__(self) -> str:
        return one_line(super().__str__())


def safe_component(text: str, default: str = "puzzle") -> str:
    """A file-name component from user text: letters, digits, '-', '_' and inner dots only.

    ``...txt``, ``..``, ``a/b`` or an empty name can never lead outside a folder."""
    name = re.sub(r"[^0-9A-Za-z._-]+", "_", text).strip("._")
    name = re.sub(r"\.{2,}", ".", name)
    return name[:100] or default


def looks_like_output(names: Iterable[str]) -> bool:
    """True when every name matches a name our exporters declare (render.export.output_patterns),
    the explain command's index.json or a numbered puzzle folder: an old run's output, probably."""
    from fnmatch import fnmatchcase

    from render.export import output_patterns

    patterns = (*output_patterns(), "index.json")
    names = list(names)
    return bool(names) and all(
        (n.endswith("/") and n[:-1].isdigit()) or any(fnmatchcase(n, p) for p in patterns) for n in names)


def file_digest(path: Path) -> tuple[int, str]:
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
            size += len(block)
    return size, h.hexdigest()


def file_mode() -> int:
    """The permissions of a new file under the process's umask (0o644 under umask 022)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _leftover(name: str) -> bool:
    """A temporary manifest of ours left by a run killed while writing it."""
    return name.startswith(MANIFEST + ".") and name.endswith(".tmp")


def _bookkeeping(name: str) -> bool:
    """The manifest, its list of claimed names, or a temporary manifest: ours, never output."""
    return name in (MANIFEST, CLAIMS) or _leftover(name)


def _plain_relative(rel: str) -> bool:
    parts = Path(rel).parts
    return bool(parts) and not Path(rel).is_absolute() and ".." not in parts and "\\" not in rel


class OutputFolder:
    """An output folder guarded by its manifest (see the module docstring).

    ``open()`` checks the folder (nothing is removed yet); ``check(names)``
    refuses names we may not write; ``guard(path)`` does the same for one
    path and claims it; ``subfolder(name)`` makes or reuses a folder of
    ours; ``record(paths)`` adds written files to the manifest; ``save()``
    writes it. ``close(complete)`` records what was claimed and written,
    removes the previous run's files this one did not write again (only when
    ``complete``), and folders left empty; the folder is also a context
    manager whose exit closes it, complete when no exception is raised."""

    def __init__(self, root: str | Path, force: bool = False, tool: str = "explain-sudoku",
                 announce: bool = True) -> None:
        self.root = Path(root)
        self.force = force
        self.tool = tool
        self.announce = announce
        self.files: dict[str, dict[str, object]] = {}      # written by this run
        self.previous: dict[str, dict[str, object]] = {}   # the previous run's unchanged files, still there
        self.claimed: list[Path] = []                      # guarded names, recorded when written
        self.created: list[Path] = []  # folders this run created, outermost first
        self.foreign: list[str] = []
        self.removed = 0
        self.closed = False
        self._claims: Any = None  # the open list of claimed names (CLAIMS), appended as names are claimed

    # -- opening -------------------------------------------------------------------------------
    def open(self) -> OutputFolder:
        try:
            return self._open()
        except OSError as e:  # an unreadable folder, a name too long, ...
            raise OutputError(f"{self.root}: cannot use as output folder ({e.strerror or e})") from None
        except RuntimeError as e:  # a symbolic link loop
            raise OutputError(f"{self.root}: cannot use as output folder ({e})") from None

    def _open(self) -> OutputFolder:
        root = self.root
        if root.is_symlink() and not root.exists():
            raise OutputError(f"{root}: is a broken link, not a folder")
        if root.exists() and not root.is_dir():
            raise OutputError(f"{root}: exists and is not a folder")
        if root.is_dir():
            previous = self._read_manifest()
            self.previous = {rel: entry for rel, entry in previous.items() if self._unchanged(rel, entry)}
            self.previous.update(self._killed_runs_files())
            self.foreign = self._foreign_entries(set(self.previous))
            if self.foreign and not self.force:
                shown = ", ".join(self.foreign[:3]) + (", ..." if len(self.foreign) > 3 else "")
                legacy = ("; they look like the output of an earlier version, which kept no manifest: "
                          "delete them yourself if so") if looks_like_output(self.foreign) else ""
                raise OutputError(f"{root}: folder holds files that are not ours ({shown}); choose an empty "
                                  f"folder or pass --force (they are never changed or deleted){legacy}")
        self._make_dirs(root)
        try:
            self._save()  # doubles as the write test
            (root / CLAIMS).unlink(missing_ok=True)  # a killed run's claims: in the manifest now
        except OSError as e:
            raise OutputError(f"{root}: cannot write output folder ({e.strerror or e})") from None
        return self

    def _killed_runs_files(self) -> dict[str, dict[str, object]]:
        """The files a run killed outright wrote: the names it claimed (CLAIMS) that are plain files
        now, with their size and hash (they were free when claimed: nobody else's). A file of that
        name we did not write (no mark on its first line, a link, a folder) is refused, never read
        nor removed: its names would otherwise be taken as ours."""
        path = self.root / CLAIMS
        if not path.exists() and not path.is_symlink():
            return {}
        foreign = OutputError(f"{path}: not a list of claims written by {self.tool}; it is left alone "
                              f"(move it away or choose another folder)")
        if path.is_symlink() or not path.is_file():
            raise foreign
        found: dict[str, dict[str, object]] = {}
        with open(path, encoding="utf-8", errors="replace") as f:
            if f.readline() != CLAIMS_MARK:
                raise foreign
            for line in f:
                try:
                    rel = json.loads(line)
                except ValueError:
                    continue  # a line cut short by the kill
                if isinstance(rel, str) and _plain_relative(rel) and rel not in found and self._plain_file(rel):
                    size, digest = file_digest(self.root / rel)
                    found[rel] = {"size": size, "sha256": digest}
        return found

    def _read_manifest(self) -> dict[str, dict[str, object]]:
        path = self.root / MANIFEST
        if not path.exists() and not path.is_symlink():
            return {}
        try:
            if path.is_symlink() or not path.is_file():
                raise ValueError("not a regular file")
            doc = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(doc.get("files"), dict):
                raise ValueError("not our manifest")
        except (OSError, ValueError, UnicodeDecodeError):
            raise OutputError(f"{path}: not a manifest written by {self.tool}; it is left alone "
                              f"(move it away or choose another folder)") from None
        files: dict[str, dict[str, object]] = {}
        for rel, entry in doc["files"].items():
            if isinstance(rel, str) and isinstance(entry, dict) and _plain_relative(rel):
                files[rel] = entry
        return files

    def _plain_file(self, rel: str) -> bool:
        """A regular file with one link, reached through no symbolic link inside the folder."""
        path = self.root / rel
        try:
            if path.is_symlink() or not path.is_file() or path.stat().st_nlink != 1:  # another link: the user's too
                return False
            return not any(p.is_symlink() for p in path.parents if self.inside(p) and p != self.root)
        except OSError:
            return False

    def _unchanged(self, rel: str, entry: dict[str, object]) -> bool:
        path = self.root / rel
        try:
            if not self._plain_file(rel) or path.stat().st_size != entry.get("size"):
                return False
            return file_digest(path) == (entry.get("size"), entry.get("sha256"))
        except OSError:
            return False

    def _foreign_entries(self, ours: set[str]) -> list[str]:
        """Top-level names (folders with a '/') holding anything that is not an unchanged file of ours."""
        foreign = []
        for entry in sorted(os.scandir(self.root), key=lambda e: e.name):
            if _bookkeeping(entry.name):
                continue
            if entry.is_dir(follow_symlinks=False):
                if not self._only_ours(Path(entry.path), ours):
                    foreign.append(entry.name + "/")
            elif entry.name not in ours:
                foreign.append(entry.name)
        return foreign

    def _only_ours(self, folder: Path, ours: set[str]) -> bool:
        """Every file in the folder is ours (and there is one at least: an empty folder is not)."""
        seen = False
        for dirpath, dirnames, filenames in os.walk(folder):
            for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
                rel = Path(dirpath, name).relative_to(self.root).as_posix()
                if rel not in ours:
                    return False
                seen = True
        return seen

    def _make_dirs(self, folder: Path) -> None:
        missing = []
        p = folder
        while not p.exists() and not p.is_symlink() and p != p.parent:
            missing.append(p)
            p = p.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise OutputError(f"{folder}: cannot make the folder (a file of that name is in the way)") from None
        except OSError as e:
            raise OutputError(f"{folder}: cannot write output folder ({e.strerror or e})") from None
        self.created += list(reversed(missing))

    # -- writing -------------------------------------------------------------------------------
    def inside(self, path: Path) -> bool:
        try:
            path.resolve().relative_to(self.root.resolve())
            return True
        except (ValueError, OSError, RuntimeError):
            return False

    def _rel(self, path: Path) -> str:
        return path.resolve().relative_to(self.root.resolve()).as_posix()

    def clash(self, path: str | Path) -> str | None:
        """Why ``path`` may not be written (None: it may): outside the folder, the manifest's
        name, or an existing file or folder that is not an unchanged one of ours."""
        path = Path(path)
        if not self.inside(path.parent) or path.name in ("", ".", "..") or _bookkeeping(path.name):
            return f"{path}: not a safe output name (outside {self.root})"
        if not (path.exists() or path.is_symlink()):
            return None
        if not path.is_symlink():
            rel = self._rel(path)
            if path.is_file() and rel in self.previous:
                return None  # a file of our previous run: replaced
            if path.is_dir() and self._only_ours(path, set(self.previous)):
                return None  # a folder of our previous run: its files are replaced
        return f"{path}: exists and is not ours; not overwritten (move it away or choose another folder)"

    def check(self, paths: Iterable[str | Path]) -> None:
        """Every path checked at once, before anything is written: OutputError naming the first clashes."""
        clashes = [c for c in (self.clash(p) for p in paths) if c]
        if clashes:
            more = f" (and {len(clashes) - 1} more)" if len(clashes) > 1 else ""
            raise OutputError(clashes[0] + more)

    def guard(self, path: str | Path) -> None:
        """Raise OutputError unless ``path`` may be written (``clash``); else claim it: if the run
        stops before recording it, it is recorded when the folder is closed."""
        why = self.clash(path)
        if why:
            raise OutputError(why)
        self.claimed.append(Path(path))
        self._claim(self._rel(Path(path)))

    def _claim(self, rel: str) -> None:
        """Append ``rel`` to the list of claimed names before its file is written: a run killed
        outright leaves its names there for the next run (the manifest is written at the end)."""
        from .signals import critical

        try:
            with critical():
                if self._claims is None:  # a new file (open() took a killed run's): ours, marked
                    self._claims = open(self.root / CLAIMS, "x", encoding="utf-8")  # closed in close()
                    self._claims.write(CLAIMS_MARK)
                self._claims.write(json.dumps(rel) + "\n")
                self._claims.flush()
        except OSError as e:
            raise OutputError(f"{self.root}: cannot write output folder ({e.strerror or e})") from None

    def subfolder(self, name: str) -> Path:
        """A folder of ours inside the output folder: new, or one of our previous run."""
        folder = self.root / safe_component(name, "item")
        why = self.clash(folder)
        if why:
            raise OutputError(why.replace("not overwritten", "not written into"))
        self._make_dirs(folder)
        return folder

    def record(self, paths: Iterable[str | Path]) -> None:
        for p in paths:
            path = Path(p)
            try:
                rel = self._rel(path)
                size, digest = file_digest(path)
            except (OSError, ValueError) as e:
                raise OutputError(f"{path}: cannot record in the manifest ({e})") from None
            self.files[rel] = {"size": size, "sha256": digest}

    def _entries(self) -> dict[str, dict[str, object]]:
        """The manifest: the previous run's files still there and not replaced, and ours."""
        return dict(sorted({**self.previous, **self.files}.items()))

    def _save(self) -> None:
        doc = {"format": FORMAT, "tool": self.tool,
               "note": "files written by this tool; a later run replaces only these, if unchanged",
               "files": self._entries()}
        path = self.root / MANIFEST
        fd, tmp = tempfile.mkstemp(dir=self.root, prefix=MANIFEST + ".", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                os.fchmod(f.fileno(), file_mode())
                f.write(json.dumps(doc, indent=1) + "\n")
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def save(self) -> None:
        from .signals import critical

        try:
            with critical():
                self._save()
        except OSError as e:
            raise OutputError(f"{self.root}: cannot write the manifest ({e.strerror or e})") from None

    # -- closing -------------------------------------------------------------------------------
    def __enter__(self) -> OutputFolder:
        return self

    def __exit__(self, kind: object, value: object, tb: object) -> None:
        self.close(complete=kind is None)

    def close(self, complete: bool = True) -> None:
        """Record what was written (claimed names that exist, even cut short); when the run is
        ``complete``, remove the previous run's files it did not write again; save the manifest,
        or remove it and the folders this run made when nothing is listed. Never interrupted."""
        from .signals import critical

        if self.closed:
            return
        self.closed = True
        with critical():
            self._close(complete)

    def _close(self, complete: bool) -> None:
        for path in self.claimed:
            try:
                if path.is_file() and not path.is_symlink() and self._rel(path) not in self.files:
                    self.record([path])
            except (OSError, ValueError, OutputError):
                pass
        for rel in self.files:
            self.previous.pop(rel, None)
        if complete:
            self._remove_previous()
        try:
            if self._entries():
                self._save()
            else:  # nothing of ours listed: no manifest (and the folder goes if we made it)
                (self.root / MANIFEST).unlink(missing_ok=True)
            if self._claims is not None:  # every claimed name is in the manifest now (or was not written)
                self._claims.close()
                (self.root / CLAIMS).unlink(missing_ok=True)
        except OSError:
            pass
        for folder in sorted(self.created, key=lambda p: len(p.parts), reverse=True):  # empty ones we made
            _rmdir(folder)

    def _remove_previous(self) -> None:
        """The previous run's files this run did not write again, and its folders left empty."""
        removed = 0
        dirs = {p for rel in self.previous for p in Path(rel).parents if p != Path(".")}
        for rel in sorted(self.previous):
            try:
                (self.root / rel).unlink()
                removed += 1
            except OSError:
                continue  # still listed: a later run tries again
            self.previous.pop(rel)
        for d in sorted(dirs, key=lambda p: len(p.parts), reverse=True):
            _rmdir(self.root / d)
        for entry in os.scandir(self.root):
            if _leftover(entry.name):
                Path(entry.path).unlink(missing_ok=True)
        self.removed = removed
        if removed and self.announce:
            print(f"{self.tool}: removed {removed} files of the previous output in {self.root}", file=sys.stderr)

def _rmdir(folder: Path) -> None:
    """Remove a folder if it is empty (else leave it)."""
    try:
        folder.rmdir()
    except OSError:
        pass
