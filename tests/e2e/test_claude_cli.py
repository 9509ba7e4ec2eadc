"""Against the real Claude Code CLI: each install scope, doctor across scopes, the plugin.

Whether the Read hook fires is checked in real `claude -p` sessions, with a local stand-in
for the model (`anthropic_stub`) that asks for one Read of a large Markdown file.

The CLI is the version pinned in `tools/clients` (installed there by scripts/test.sh with npm);
without it the tests are skipped and say why. Every run uses a temporary HOME, never the real
one, and no network: the plugin provisions its dependencies from the `.wheelhouse` that
scripts/test.sh fills.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import BIN, environ_without
from tests.e2e import slow_index
from tests.e2e.anthropic_stub import messages_api, messages_api_calling, run_claude

REPO = Path(__file__).resolve().parents[2]
CLIENTS = REPO / "tools" / "clients" / "node_modules" / ".bin"
WHEELHOUSE = REPO / ".wheelhouse"
SKIP_CLIS = "MDSEL_TEST_SKIP_CLIS"
"""Set (to anything), scripts/test.sh installs no agent CLI and their tests skip."""
PLUGIN = "mdsel@mdsel-claude"
"""The plugin in the repository's one-plugin marketplace."""
SERVER = "plugin:mdsel:mdsel"
"""Its MCP server, as `claude mcp list` names it."""
PLUGIN_TOOL = "mcp__plugin_mdsel_mdsel__mdsel_index"
"""Its index tool, as the model calls it."""
PLUGIN_MAX_BYTES = 5_000_000
"""What installing the plugin may copy: its manifests and `src/` (about 1.5 MB)."""
REMINDER = "Use mdsel_index and mdsel_select instead of Read."


def client(name: str) -> str:
    """A pinned client CLI from tools/clients, or skip saying how to get it."""
    if os.environ.get(SKIP_CLIS):
        pytest.skip(f"{SKIP_CLIS} is set: the tests that drive the agent CLIs are skipped")
    path = CLIENTS / name
    if not path.exists():
        pytest.skip(
            f"the pinned {name} CLI is not installed (scripts/test.sh installs tools/clients "
            "with npm when npm is available)"
        )
    return str(path)


@pytest.fixture(scope="session")
def claude_cli() -> str:
    return client("claude")


@dataclass
class Sandbox:
    env: dict[str, str]
    home: Path
    project: Path

    def run(self, *argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            list(argv),
            env=self.env,
            cwd=cwd or self.project,
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )


def base_python() -> str:
    """The interpreter behind the test venv: a Python with nothing of ours installed."""
    return os.path.realpath(getattr(sys, "_base_executable", sys.executable))


@pytest.fixture
def sandbox(tmp_path: Path, claude_cli: str) -> Iterator[Sandbox]:
    """A temporary HOME and git project; on PATH only `claude`, `python3` and the system."""
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)  # the project root, as `git init` would mark it
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "claude").symlink_to(claude_cli)
    (bin_dir / "python3").symlink_to(base_python())
    env = environ_without("CLAUDE", "XDG_", "MDSEL_", "PIP_", "VIRTUAL_ENV", "PYTHON")
    env["HOME"] = str(home)
    env["PATH"] = os.pathsep.join([str(bin_dir), "/usr/bin", "/bin"])
    # A temporary directory of the sandbox's own: the checkout (whose mdsel-claude the tests
    # install) may itself lie in the system's, where setup would take it for short-lived.
    (tmp_path / "tmp").mkdir()
    env["TMPDIR"] = str(tmp_path / "tmp")
    assert shutil.which("mdsel-claude", path=env["PATH"]) is None
    yield Sandbox(env, home, project)


def installed(sandbox: Sandbox) -> str:
    """Put mdsel-claude on the sandbox's PATH (as `pip install` would); its path."""
    scripts = BIN
    if not (scripts / "mdsel-claude").exists():
        pytest.skip("the mdsel-claude script is not installed (pip install -e .)")
    sandbox.env["PATH"] = os.pathsep.join([str(scripts), sandbox.env["PATH"]])
    return str(scripts / "mdsel-claude")


def reminded_in_a_session(sandbox: Sandbox) -> bool:
    """Run a real `claude -p` session (against a local stand-in for the model) that Reads a
    large Markdown file; True when the hook's reminder went to the model with the result."""
    big = sandbox.project / "big.md"
    big.write_text("# Notes\n\n" + "word " * 400 + "\n")
    with messages_api(str(big)) as (url, stub):
        env = {
            **sandbox.env,
            "ANTHROPIC_BASE_URL": url,
            "ANTHROPIC_API_KEY": "sk-ant-test",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        }
        done = subprocess.run(
            ["claude", "-p", "Read big.md", "--allowedTools", "Read"],
            env=env,
            cwd=sandbox.project,
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        sent = stub.after_read()
    big.unlink()
    assert "tool_result" in sent, "the session never ran the Read"
    return "hook additional context" in sent and REMINDER in sent


def server_lines(listing: str, name: str) -> list[str]:
    return [line for line in listing.splitlines() if line.startswith(f"{name}: ")]


def test_local_scope_is_the_default_and_connects(sandbox: Sandbox) -> None:
    exe = installed(sandbox)
    (sandbox.home / ".claude.json").write_text('{"numStartups": 7, "projects": {}}')
    docs = sandbox.project / "docs"
    docs.mkdir()
    done = sandbox.run("mdsel-claude", "install", cwd=docs)
    assert done.returncode == 0, done.stderr
    assert sorted(os.listdir(docs)) == []
    got = sandbox.run("claude", "mcp", "get", "mdsel", cwd=docs)
    assert "Scope: Local config" in got.stdout, got.stdout
    assert f"Command: {exe}" in got.stdout and "Connected" in got.stdout, got.stdout
    [line] = server_lines(sandbox.run("claude", "mcp", "list").stdout, "mdsel")
    assert "Connected" in line
    assert reminded_in_a_session(sandbox)

    removed = sandbox.run("mdsel-claude", "uninstall", cwd=docs)
    assert removed.returncode == 0, removed.stderr
    assert sandbox.run("claude", "mcp", "get", "mdsel").returncode != 0
    assert not reminded_in_a_session(sandbox)
    assert json.loads((sandbox.home / ".claude.json").read_text())["numStartups"] == 7
    assert sorted(os.listdir(sandbox.project)) == [".git", "docs"]


def test_project_scope_writes_portable_entries_at_the_root(sandbox: Sandbox) -> None:
    docs = sandbox.project / "docs"
    docs.mkdir()
    exe = str(BIN / "mdsel-claude")
    refused = sandbox.run(exe, "install", "--scope", "project", cwd=docs)
    assert refused.returncode == 1 and "not on your PATH" in refused.stderr
    installed(sandbox)
    done = sandbox.run("mdsel-claude", "install", "--scope", "project", cwd=docs)
    assert done.returncode == 0, done.stderr
    config = json.loads((sandbox.project / ".mcp.json").read_text())
    assert config["mcpServers"]["mdsel"]["command"] == "mdsel-claude"
    got = sandbox.run("claude", "mcp", "get", "mdsel", cwd=docs)
    assert "Scope: Project config" in got.stdout, got.stdout
    assert "Command: mdsel-claude" in got.stdout
    assert "mdsel-claude" not in (sandbox.home / ".claude.json").read_text()
    assert reminded_in_a_session(sandbox)  # the shared hook, run from PATH
    removed = sandbox.run("mdsel-claude", "uninstall", "--scope", "project", cwd=docs)
    assert removed.returncode == 0, removed.stderr
    assert sorted(os.listdir(sandbox.project)) == [".git", "docs"]


def test_user_scope_install_connects(sandbox: Sandbox) -> None:
    exe = installed(sandbox)
    done = sandbox.run("mdsel-claude", "install", "--scope", "user")
    assert done.returncode == 0, done.stderr
    got = sandbox.run("claude", "mcp", "get", "mdsel")
    assert "Scope: User config" in got.stdout and f"Command: {exe}" in got.stdout, got.stdout
    [line] = server_lines(sandbox.run("claude", "mcp", "list").stdout, "mdsel")
    assert "Connected" in line
    assert reminded_in_a_session(sandbox)

    doctor = sandbox.run("mdsel-claude", "doctor")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr

    removed = sandbox.run("mdsel-claude", "uninstall", "--scope", "user")
    assert removed.returncode == 0, removed.stderr
    assert server_lines(sandbox.run("claude", "mcp", "list").stdout, "mdsel") == []
    assert not (sandbox.home / ".claude" / "settings.json").exists()


def test_doctor_reports_a_server_in_two_scopes(sandbox: Sandbox) -> None:
    installed(sandbox)
    done = sandbox.run("mdsel-claude", "install", "--scope", "local")
    assert done.returncode == 0, done.stderr
    refused = sandbox.run("mdsel-claude", "install", "--scope", "user")
    assert refused.returncode == 1 and "mdsel-claude uninstall --scope local" in refused.stderr
    done = sandbox.run("mdsel-claude", "install", "--scope", "user", "--allow-duplicate")
    assert done.returncode == 0, done.stderr
    doctor = sandbox.run("mdsel-claude", "doctor")
    assert doctor.returncode != 0
    assert "local scope" in doctor.stdout and "user scope" in doctor.stdout


def test_plugin_layout_validates_strictly(claude_cli: str, tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path)}
    env.pop("CLAUDE_CONFIG_DIR", None)
    # `.` is the marketplace (it lists the plugin); `plugin` checks the plugin and its hooks.
    # --strict: a warning fails. The plugin-directory checks (a listing icon) are advice only.
    for target in (".", "plugin"):
        result = subprocess.run(
            [claude_cli, "plugin", "validate", "--strict", target],
            env=env,
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=100,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        assert "Validation passed" in result.stdout and "✘" not in result.stdout
    assert "pypi.org (declared)" in result.stdout  # what the first start reaches
    assert "Hosts not declared" not in result.stdout


def tree_size(folder: Path) -> tuple[int, list[str]]:
    """Bytes of the regular files below `folder`, and the names of its top-level entries."""
    files = [path for path in folder.rglob("*") if path.is_file() and not path.is_symlink()]
    return sum(path.stat().st_size for path in files), sorted(p.name for p in folder.iterdir())


def install_plugin(sandbox: Sandbox) -> Path:
    """The checkout itself (with its .venv, .wheelhouse and clients) added as a marketplace and
    the plugin installed from it, as a user would; the folder Claude Code installed it in."""
    added = sandbox.run("claude", "plugin", "marketplace", "add", str(REPO))
    assert added.returncode == 0, added.stdout + added.stderr
    started = time.monotonic()
    plugin = sandbox.run("claude", "plugin", "install", PLUGIN)
    took = time.monotonic() - started
    assert plugin.returncode == 0, plugin.stdout + plugin.stderr
    [folder] = (sandbox.home / ".claude" / "plugins" / "cache").glob("*/mdsel/*")
    size, names = tree_size(folder)
    print(f"plugin install: {size / 1e6:.2f} MB in {took:.1f} s")  # for the report (-s)
    assert size <= PLUGIN_MAX_BYTES, (size, names)
    assert names == [
        ".claude-plugin", ".mcp.json", "LICENSE", "hooks", "requirements.lock", "skills", "src"
    ]  # fmt: skip
    # The skill, and the package's link to it (install --skill reads that one), are readable.
    skill = (REPO / "plugin" / "skills" / "mdsel" / "SKILL.md").read_bytes()
    assert (folder / "skills" / "mdsel" / "SKILL.md").read_bytes() == skill
    assert (folder / "src" / "mdsel_claude" / "skills" / "mdsel" / "SKILL.md").read_bytes() == skill
    assert (folder / "src" / "mdsel_claude" / "launch.py").is_file()
    assert (folder / "requirements.lock").read_bytes() == (REPO / "requirements.lock").read_bytes()
    return folder


def test_the_checkout_opened_as_a_project_shows_no_broken_server(sandbox: Sandbox) -> None:
    listing = sandbox.run("claude", "mcp", "list", cwd=REPO)
    assert listing.returncode == 0, listing.stdout + listing.stderr
    assert "CLAUDE_PLUGIN_ROOT" not in listing.stdout + listing.stderr
    assert "launch.py" not in listing.stdout  # the plugin's server is the plugin's only


def test_plugin_works_with_nothing_on_path(sandbox: Sandbox) -> None:
    if not any(WHEELHOUSE.glob("mcp-*.whl")):
        pytest.skip(f"no wheels in {WHEELHOUSE} to provision from offline (scripts/test.sh)")
    install_plugin(sandbox)
    # Offline: pip installs the locked dependencies, by hash, from the wheelhouse only. The
    # first start installs them, so give it more than the default 30 s on a busy machine.
    sandbox.env.update(PIP_NO_INDEX="1", PIP_FIND_LINKS=str(WHEELHOUSE), MCP_TIMEOUT="150000")
    data = sandbox.home / ".claude" / "plugins" / "data"
    for start in ("first", "provisioned"):
        listing = sandbox.run("claude", "mcp", "list")
        [line] = server_lines(listing.stdout, SERVER)
        assert "Connected" in line, (start, listing.stdout)
        ready(data)  # on a busy machine the first start answers while the install goes on
    assert [p.name[:5] for p in data.glob("*/venv-*")] == ["venv-"]

    assert reminded_in_a_session(sandbox)  # the plugin's hook, in a real session


def ready(data: Path, wait: float = 600) -> Path:
    """The plugin's provisioned environment, once its install (which goes on without the
    server) has finished; the test fails if it has not within `wait` seconds."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        marks = list(data.glob("*/venv-*/ready"))
        if marks:
            return marks[0].parent
        time.sleep(1)
    records = [p.read_text() for p in data.glob("*/provision.json")]
    raise AssertionError(f"the plugin's install did not finish: {records}")


def skipped_servers(sandbox: Sandbox) -> dict[str, object]:
    """The servers Claude Code skips in its sessions after a failed start."""
    path = sandbox.home / ".claude" / "mcp-needs-auth-cache.json"
    return json.loads(path.read_text()) if path.exists() else {}


@pytest.mark.timeout(900)
def test_plugin_slow_first_start_connects_and_converges(sandbox: Sandbox) -> None:
    """The first start's install takes longer than Claude Code waits (the index answers each
    project after 2 s): the server answers at once, so `claude mcp list` says Connected and
    Claude Code does not skip it; the install survives the CLI ending the server, and the
    next start runs the real server."""
    if not any(WHEELHOUSE.glob("mcp-*.whl")):
        pytest.skip(f"no wheels in {WHEELHOUSE} to provision from offline (scripts/test.sh)")
    install_plugin(sandbox)
    data = sandbox.home / ".claude" / "plugins" / "data"
    # The client waits 30 s (the default) and the server answers within 5 s of its start (a
    # `claude -p` session waits about 12 s for its tools); the install takes 2 s per project.
    with slow_index.slow_index(WHEELHOUSE, delay=2.0) as index:
        sandbox.env.update(PIP_INDEX_URL=index, PIP_CONFIG_FILE=os.devnull)
        listing = sandbox.run("claude", "mcp", "list")
        [line] = server_lines(listing.stdout, SERVER)
        assert "Connected" in line, listing.stdout
        assert SERVER not in skipped_servers(sandbox)
        assert not list(data.glob("*/venv-*/ready"))  # answered while the install goes on
        [record] = data.glob("*/provision.json")
        assert json.loads(record.read_text())["outcome"] == "running"
        # A session meanwhile: the model's call gets what is happening, not a dead server.
        with messages_api_calling(PLUGIN_TOOL, files=["README.md"]) as (url, stub):
            run_claude(
                "claude",
                url,
                sandbox.env,
                sandbox.project,
                "Index it",
                "--allowedTools",
                PLUGIN_TOOL,
            )
            shown = stub.tool_result()
        assert "is getting ready" in shown and "retry in about 30 seconds" in shown, shown
        ready(data)
    listing = sandbox.run("claude", "mcp", "list")
    [line] = server_lines(listing.stdout, SERVER)
    assert "Connected" in line and SERVER not in skipped_servers(sandbox), listing.stdout
    assert not list(data.glob("*/.venv-*"))


def failed(data: Path, other_than: int | None = None, wait: float = 600) -> int:
    """The pid of the plugin's install attempt once the record says it failed (not the attempt
    `other_than`); the test fails if none has within `wait` seconds."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        for record in data.glob("*/provision.json"):
            attempt = json.loads(record.read_text())
            if attempt["outcome"] == "failed" and attempt["pid"] != other_than:
                return int(attempt["pid"])
        time.sleep(1)
    raise AssertionError(f"the plugin's install did not fail: {list(data.glob('*/provision.*'))}")


@pytest.mark.timeout(900)
def test_plugin_offline_first_start_connects_and_says_why_in_the_session(
    sandbox: Sandbox,
) -> None:
    """No package index answers (a black-holed network, so pip gives up only after its
    timeouts): the server still answers within seconds, however long MCP_TIMEOUT is, so Claude
    Code skips nothing; the install's failure is said to the model by the next session's
    call, with what to do."""
    install_plugin(sandbox)
    data = sandbox.home / ".claude" / "plugins" / "data"
    with slow_index.silent_index() as index:
        # No pip configuration of this machine's applies: as on a laptop without network.
        sandbox.env.update(PIP_INDEX_URL=index, PIP_CONFIG_FILE=os.devnull)
        sandbox.env["MCP_TIMEOUT"] = "150000"  # the first answer must not wait a third of it
        listing = sandbox.run("claude", "mcp", "list")
        [line] = server_lines(listing.stdout, SERVER)
        assert "Connected" in line, listing.stdout
        assert SERVER not in skipped_servers(sandbox)
        first = failed(data)  # the install goes on without the server, and fails
        with messages_api_calling(PLUGIN_TOOL, files=["README.md"]) as (url, stub):
            run_claude(
                "claude",
                url,
                sandbox.env,
                sandbox.project,
                "Index it",
                "--allowedTools",
                PLUGIN_TOOL,
            )
            shown = stub.tool_result()
        assert "The attempt before this one failed" in shown, shown
        assert "could not reach the package index" in shown and "PIP_INDEX_URL" in shown
        assert "then call again" in shown and "/mcp" not in shown  # nothing to reconnect
        assert SERVER not in skipped_servers(sandbox)
        failed(data, other_than=first)  # the session's own attempt ends before the index goes
    assert not list(data.glob("*/*venv-*"))
