"""No stale compiled code: numba's cache is keyed by a hash of every source (sim/core/cache.py).

numba checks only the file of a cached function, so code inlined into it from another file stays
compiled as it was. The probe below is that situation: `root` (cached) inlines `leaf` from another
file. A copied source tree is edited between two processes; the second sees the new code without
anything deleted by hand, while numba's plain cache (the control) keeps the old one.
"""
import shutil
import subprocess
import sys
from pathlib import Path

from sim.core import cache

ROOT = Path(__file__).resolve().parents[1]

LEAF = """
from numba import njit

@njit(cache=True, inline="always")
def leaf():
    return {value}
"""
PROBE = """
from numba import njit
from .probe_leaf import leaf

@njit(cache=True)
def root():
    return leaf() * 10
"""
RUN = """
import sys
import sim, numba
{control}
from sim.probe_root import root
print(root(), numba.config.CACHE_DIR)
"""


def _tree(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    for pkg in ("sim", "strategies"):
        shutil.copytree(ROOT / pkg, tree / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    (tree / "sim" / "probe_root.py").write_text(PROBE)
    (tree / "sim" / "probe_leaf.py").write_text(LEAF.format(value=1))
    return tree


def _run(tree: Path, env_dir: Path, control: str = "") -> tuple[int, str]:
    env = {"PATH": "/usr/bin:/bin", "MEEPLELAB_CACHE_DIR": str(env_dir), "HOME": str(env_dir)}
    out = subprocess.run([sys.executable, "-c", RUN.format(control=control)], cwd=tree, env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]), out[1]


def test_an_edit_in_an_inlined_file_is_compiled_without_deleting_anything(tmp_path):
    tree = _tree(tmp_path)
    first, dir1 = _run(tree, tmp_path / "cache")
    again, same = _run(tree, tmp_path / "cache")
    assert (first, again, same) == (10, 10, dir1)
    assert list(Path(dir1).rglob("*.nbi")), "the probe was not cached"
    (tree / "sim" / "probe_leaf.py").write_text(LEAF.format(value=2))
    edited, dir2 = _run(tree, tmp_path / "cache")
    assert edited == 20
    assert dir2 != dir1 and Path(dir1).exists()


def test_numba_alone_would_run_the_old_code(tmp_path):
    """The control: the same edit under one fixed cache directory keeps the old value."""
    tree = _tree(tmp_path)
    fixed = f"numba.config.CACHE_DIR = {str(tmp_path / 'fixed')!r}"
    assert _run(tree, tmp_path / "cache", fixed)[0] == 10
    (tree / "sim" / "probe_leaf.py").write_text(LEAF.format(value=2))
    assert _run(tree, tmp_path / "cache", fixed)[0] == 10   # stale: what the key prevents


def test_the_key_covers_every_source_file(tmp_path):
    tree = _tree(tmp_path)
    roots = [tree / "sim", tree / "strategies"]
    before = cache.source_key(roots)
    policies = tree / "sim" / "diamant" / "policies.py"
    policies.write_text(policies.read_text() + "\n# edited\n")
    after_engine = cache.source_key(roots)
    (tree / "strategies" / "diamant.py").write_text("# edited\n")
    assert len({before, after_engine, cache.source_key(roots)}) == 3
