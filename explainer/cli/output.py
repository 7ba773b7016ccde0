"""Output folders that never touch a user's file: the output manifest.

Every run records the files it wrote (relative path, size, SHA-256) in
``.explain-sudoku-manifest.json`` inside the output folder. The next run
into that folder removes only files listed there and unchanged since; every
other file or folder is foreign and is left alone:

- a folder holding foreign files is refused unless ``--force``; with
  ``--force`` we write beside them, still never over them;
- a foreign file at a name we would write is an error, with or without
  ``--force`` (it is never overwritten);
- a listed file the user changed since (other size or hash) is foreign too.

The names we write come from the exporters' declarations (render.export)
and are checked before anything is written.
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

from ..grid import one_line

MANIFEST = ".explain-sudoku-manifest.json"
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


def _plain_relative(rel: str) -> bool:
    parts = Path(rel).parts
    return bool(parts) and not Path(rel).is_absolute() and ".." not in parts and "\\" not in rel


class OutputFolder:
    """An output folder guarded by its manifest (see the module docstring).

    ``open()`` checks the folder and removes the previous run's unchanged
    files; ``guard(path)`` refuses a path we may not write; ``record(paths)``
    adds written files to the manifest; ``close()`` saves it (and removes
    the folder again when this run created it and wrote nothing)."""

    def __init__(self, root: str | Path, force: bool = False, tool: str = "explain-sudoku",
                 announce: bool = True) -> None:
        self.root = Path(root)
        self.force = force
        self.tool = tool
        self.announce = announce
        self.files: dict[str, dict[str, object]] = {}
        self.created: list[Path] = []  # folders this run created, outermost first
        self.foreign: list[str] = []
        self.removed = 0
        self._had_manifest = False

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
            ours = {rel for rel, entry in previous.items() if self._unchanged(rel, entry)}
            self.foreign = self._foreign_entries(ours)
            if self.foreign and not self.force:
                shown = ", ".join(self.foreign[:3]) + (", ..." if len(self.foreign) > 3 else "")
                legacy = ("; they look like the output of an earlier version, which kept no manifest: "
                          "delete them yourself if so") if looks_like_output(self.foreign) else ""
                raise OutputError(f"{root}: folder holds files that are not ours ({shown}); choose an empty "
                                  f"folder or pass --force (they are never changed or deleted){legacy}")
            self._remove_previous(ours, previous)
        self._make_dirs(root)
        try:
            self._save()  # doubles as the write test
        except OSError as e:
            raise OutputError(f"{root}: cannot write output folder ({e.strerror or e})") from None
        return self

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
        self._had_manifest = True
        files: dict[str, dict[str, object]] = {}
        for rel, entry in doc["files"].items():
            if isinstance(rel, str) and isinstance(entry, dict) and _plain_relative(rel):
                files[rel] = entry
        return files

    def _unchanged(self, rel: str, entry: dict[str, object]) -> bool:
        path = self.root / rel
        try:
            if path.is_symlink() or not path.is_file():
                return False
            if path.stat().st_size != entry.get("size"):
                return False
            return file_digest(path) == (entry.get("size"), entry.get("sha256"))
        except OSError:
            return False

    def _foreign_entries(self, ours: set[str]) -> list[str]:
        """Top-level names (folders with a '/') holding anything that is not an unchanged file of ours."""
        foreign = []
        our_dirs = {Path(rel).parts[0] for rel in ours if len(Path(rel).parts) > 1}
        for entry in sorted(os.scandir(self.root), key=lambda e: e.name):
            if entry.name == MANIFEST:
                continue
            if entry.is_dir(follow_symlinks=False):
                if entry.name not in our_dirs or not self._only_ours(Path(entry.path), ours):
                    foreign.append(entry.name + "/")
            elif entry.name not in ours:
                foreign.append(entry.name)
        return foreign

    def _only_ours(self, folder: Path, ours: set[str]) -> bool:
        for dirpath, dirnames, filenames in os.walk(folder):
            for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
                rel = Path(dirpath, name).relative_to(self.root).as_posix()
                if rel not in ours:
                    return False
        return True

    def _remove_previous(self, ours: set[str], previous: dict[str, dict[str, object]]) -> None:
        foreign_top = {f.rstrip("/") for f in self.foreign}
        removed = 0
        for rel in sorted(ours):
            if Path(rel).parts[0] in foreign_top and len(Path(rel).parts) > 1:
                continue  # inside a folder that also holds foreign files: keep it whole
            try:
                (self.root / rel).unlink()
                removed += 1
            except OSError as e:
                raise OutputError(f"{self.root / rel}: cannot remove the previous output ({e.strerror or e})") \
                    from None
        # folders of ours that are empty now (deepest first)
        dirs = {p for rel in ours for p in Path(rel).parents if p != Path(".")}
        for d in sorted(dirs, key=lambda p: len(p.parts), reverse=True):
            try:
                (self.root / d).rmdir()
            except OSError:
                pass
        self.removed = removed
        if removed and self.announce:
            print(f"{self.tool}: replacing the previous output in {self.root} ({removed} files)", file=sys.stderr)
        # the previous manifest is replaced: files it listed that stay (changed ones) are foreign now
        self.files = {}
        del previous

    def _make_dirs(self, folder: Path) -> None:
        missing = []
        p = folder
        while not p.exists() and not p.is_symlink() and p != p.parent:
            missing.append(p)
            p = p.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
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

    def guard(self, path: str | Path) -> None:
        """Raise OutputError unless ``path`` may be written: inside the folder, and not an existing file."""
        path = Path(path)
        if not self.inside(path.parent) or path.name in ("", ".", "..") or path.name == MANIFEST:
            raise OutputError(f"{path}: not a safe output name (outside {self.root})")
        if path.exists() or path.is_symlink():
            raise OutputError(f"{path}: exists and is not ours; not overwritten (move it away or choose "
                              f"another folder)")

    def subfolder(self, name: str) -> Path:
        """A new folder of ours inside the output folder (refused when it exists already)."""
        folder = self.root / safe_component(name, "item")
        if folder.exists() or folder.is_symlink():
            raise OutputError(f"{folder}: exists and is not ours; not written into (move it away or choose "
                              f"another folder)")
        self._make_dirs(folder)
        return folder

    def record(self, paths: Iterable[str | Path]) -> None:
        for p in paths:
            path = Path(p)
            try:
                rel = path.resolve().relative_to(self.root.resolve()).as_posix()
                size, digest = file_digest(path)
            except (OSError, ValueError) as e:
                raise OutputError(f"{path}: cannot record in the manifest ({e})") from None
            self.files[rel] = {"size": size, "sha256": digest}

    def _save(self) -> None:
        doc = {"format": FORMAT, "tool": self.tool,
               "note": "files written by this tool; a later run replaces only these, if unchanged",
               "files": dict(sorted(self.files.items()))}
        path = self.root / MANIFEST
        fd, tmp = tempfile.mkstemp(dir=self.root, prefix=MANIFEST + ".", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(json.dumps(doc, indent=1) + "\n")
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def save(self) -> None:
        try:
            self._save()
        except OSError as e:
            raise OutputError(f"{self.root}: cannot write the manifest ({e.strerror or e})") from None

    def close(self) -> None:
        """Save the manifest; a run that wrote nothing leaves no trace (folders it made, its manifest)."""
        if self.files:
            self.save()
            return
        try:
            if not self._had_manifest or self.removed:
                (self.root / MANIFEST).unlink(missing_ok=True)
            else:
                self._save()
        except OSError:
            pass
        for folder in reversed(self.created):
            try:
                folder.rmdir()
            except OSError:
                break
