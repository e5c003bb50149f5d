"""The package as a user who does not install from a clone gets it: the sdist built from
this tree carries the engine's sources (not the C made from them, not this tree's build
record), ``pip install`` of it in a fresh environment builds the engine, and where no C
compiler is there the install still succeeds and every later run says the true reason.

Offline: the fresh environment borrows this one's installed libraries (a ``.pth`` file)
and pip builds without isolation, so nothing is downloaded. The release's own path (a
manylinux wheel installed where no compiler is on the PATH) is CI's, which has the
registry: ``.ci/run``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tarfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.full  # a build and two installs: half a minute

ROOT = Path(__file__).resolve().parent.parent
CAR = ROOT / "puzzles" / "car.dat"


@pytest.fixture(scope="module")
def sdist(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation",
                    "--outdir", str(out), str(ROOT)],
                   check=True, capture_output=True, text=True, timeout=600)
    (made,) = out.glob("satnono-*.tar.gz")
    return made


def fresh_install(sdist: Path, folder: Path, env: dict[str, str] | None = None
                  ) -> subprocess.CompletedProcess[str]:
    """A new virtual environment with the sdist installed by pip; its other libraries
    are this environment's."""
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; "
                           "print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    borrowed = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(site) / "borrowed.pth").write_text("\n".join(sorted(borrowed)) + "\n")
    return subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
         "--no-build-isolation", "--no-index", "--no-cache-dir", str(sdist)],
        capture_output=True, text=True, timeout=900, env={**os.environ, **(env or {})})


def satnono(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The installed command, run from a folder that is not this tree (whose ``satnono``
    would be imported first otherwise)."""
    env = {k: v for k, v in os.environ.items() if k != "SATNONO_NO_COMPILED"}
    return subprocess.run([str(folder / "venv" / "bin" / "satnono"), *args], cwd=folder,
                          capture_output=True, text=True, timeout=300, env=env)


def test_the_sdist_carries_the_engines_sources_and_nothing_built(sdist):
    with tarfile.open(sdist) as tar:
        names = {Path(n).relative_to(Path(n).parts[0]).as_posix() for n in tar.getnames()
                 if len(Path(n).parts) > 1}
    engine = {n.split("/")[-1] for n in names if n.startswith("satnono/engine/")}
    sources = {p.name for p in (ROOT / "satnono" / "engine").glob("*.p[yx][xd]")}
    assert sources and sources <= engine  # every .pyx and .pxd
    assert not {n for n in engine if n.endswith((".c", ".so")) or "BUILT" in n}
    assert {"setup.py", "pyproject.toml", "README.md", "puzzles/car.dat"} <= names


def test_the_sdist_installs_with_its_engine_built_portable(sdist, tmp_path):
    done = fresh_install(sdist, tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    version = satnono(tmp_path, "--version")
    assert version.returncode == 0
    assert "engine: compiled (portable" in version.stdout
    solved = satnono(tmp_path, "solve", str(CAR))
    assert solved.returncode == 0
    assert "unique solution" in solved.stderr  # the verdict; the picture on stdout
    assert solved.stdout.startswith("....######")
    assert "Python logic" not in solved.stderr  # the engine ran


def test_with_no_compiler_the_install_succeeds_and_runs_say_why(sdist, tmp_path):
    done = fresh_install(sdist, tmp_path, env={"CC": str(tmp_path / "no-such-cc")})
    assert done.returncode == 0, done.stderr[-2000:]
    version = satnono(tmp_path, "--version")
    assert "engine: not built at install (no C compiler" in version.stdout
    solved = satnono(tmp_path, "solve", str(CAR))
    assert solved.returncode == 0
    assert "unique solution" in solved.stderr  # the verdict; the picture on stdout
    assert solved.stdout.startswith("....######")
    # one line, with the build's own reason, not a guess
    said = [line for line in solved.stderr.splitlines() if "Python logic" in line]
    assert len(said) == 1 and "no C compiler" in said[0]
