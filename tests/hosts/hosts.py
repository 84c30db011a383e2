"""The server packages as MCP hosts run them, against the packed artifacts of `target/dist`.

    python hosts.py check DIST HOSTS_MD MCPB      # every way to run the server, and every
                                                   # configuration block of docs/hosts.md
    python hosts.py cold-start DIST RUNS           # spawn-to-first-tools/list, medians

Run by `cargo xtask test install` with the hosts' venv (uv, pipx, the official MCP Python SDK,
PyYAML) and no Rust on PATH. Nothing reaches a registry: npm asks a registry on loopback that
serves only the packed tarballs, uv and pip read the wheel from DIST with no index, the bundle
is unpacked with the official `mcpb` CLI and run by its manifest. Each way lists the tools
through the official MCP client and calls `stationToilets`.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import http.server
import io
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

SERVER = "toolpack-mcp"
# Wheels the runners need besides the server's (the pip that pipx installs for itself).
WHEELS = Path(__file__).resolve().parents[2] / "target/tools/hosts/wheels"
STATION, STATION_ID = "Abbey Wood", "HUBABW"
# Hosts whose configuration docs/hosts.md must show, by the file each block names.
HOST_FILES = {
    "claude_desktop_config.json": "Claude Desktop",
    ".mcp.json": "Claude Code",
    ".vscode/mcp.json": "VS Code",
    ".cursor/mcp.json": "Cursor",
    "~/.codex/config.toml": "Codex",
    "~/.config/goose/config.yaml": "Goose",
}


@dataclass
class Launch:
    """A command as a host spawns it."""

    what: str
    command: str
    args: list[str]
    env: dict[str, str] = field(default_factory=dict)


class NpmRegistry:
    """A registry on loopback serving the packed npm tarballs of DIST: a packument per
    package (from the tarball's own package.json) and the tarballs."""

    def __init__(self, dist: Path) -> None:
        self.tarballs: dict[str, bytes] = {}
        self.packuments: dict[str, bytes] = {}
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{server.server_address[1]}/"
        for tarball in sorted(dist.glob(f"{SERVER}-*.tgz")):
            self._add(tarball)
        if len(self.packuments) != 2:
            raise SystemExit(f"expected the two npm server tarballs in {dist}, found {list(self.packuments)}")
        threading.Thread(target=server.serve_forever, daemon=True).start()

    def _add(self, tarball: Path) -> None:
        data = tarball.read_bytes()
        with tarfile.open(fileobj=io.BytesIO(data)) as archive:
            member = archive.extractfile("package/package.json")
            assert member is not None
            manifest = json.load(member)
        name, version = manifest["name"], manifest["version"]
        self.tarballs[tarball.name] = data
        manifest["dist"] = {
            "tarball": f"{self.url}-/{tarball.name}",
            "shasum": hashlib.sha1(data).hexdigest(),
            "integrity": "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode(),
        }
        packument = {"name": name, "dist-tags": {"latest": version}, "versions": {version: manifest}}
        self.packuments[name] = json.dumps(packument).encode()

    def _handler(self) -> type[http.server.BaseHTTPRequestHandler]:
        registry = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the stdlib's name)
                path = self.path.split("?")[0].lstrip("/")
                body = registry.tarballs.get(path[2:]) if path.startswith("-/") else registry.packuments.get(path)
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("content-type", "application/json" if not path.startswith("-/") else "application/octet-stream")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_: object) -> None:
                pass

        return Handler


class Places:
    """Where the runners keep their caches, and the environment that points them at the
    local artifacts instead of a registry."""

    def __init__(self, dist: Path, scratch: Path, registry: NpmRegistry) -> None:
        self.dist, self.scratch = dist, scratch
        uv_config = scratch / "uv.toml"
        uv_config.write_text(f"no-index = true\nfind-links = [{json.dumps(str(dist))}]\n")
        self.env = {
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
            "HOME": str(scratch / "home"),
            "TOOLPACK_DATA_DIR": str(scratch / "data"),
            # npx
            "npm_config_registry": registry.url,
            "npm_config_cache": str(scratch / "npm-cache"),
            "npm_config_update_notifier": "false",
            "npm_config_fund": "false",
            "npm_config_audit": "false",
            # uvx
            "UV_CONFIG_FILE": str(uv_config),
            "UV_CACHE_DIR": str(scratch / "uv-cache"),
            "UV_TOOL_DIR": str(scratch / "uv-tools"),
            "UV_PYTHON_DOWNLOADS": "never",
            # pipx (through pip)
            "PIP_NO_INDEX": "1",
            # dist, and the pip wheel pipx's shared environment asks for (cargo xtask tools hosts)
            "PIP_FIND_LINKS": f"{dist} {WHEELS}",
            "PIPX_HOME": str(scratch / "pipx"),
            "PIPX_BIN_DIR": str(scratch / "pipx-bin"),
        }
        (scratch / "home").mkdir(exist_ok=True)


async def list_and_call(launch: Launch, places: Places) -> list[str]:
    """Lists the tools and calls stationToilets through the official client; returns the
    tool names."""
    env = {**places.env, **launch.env}
    params = StdioServerParameters(command=launch.command, args=launch.args, env=env, cwd=places.scratch)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            info = await session.initialize()
            if info.server_info.name != SERVER:
                raise AssertionError(f"{launch.what}: the server calls itself {info.server_info.name}")
            names = [tool.name for tool in (await session.list_tools()).tools]
            for expected in ("stationToilets", "save_user_variable", "query_architecture"):
                if expected not in names:
                    raise AssertionError(f"{launch.what}: {expected} is not listed: {names}")
            result = await session.call_tool("stationToilets", {"stationName": STATION})
            answer = result.structured_content or {}
            if result.is_error or answer.get("stationUniqueId") != STATION_ID:
                raise AssertionError(f"{launch.what}: stationToilets answered {answer}")
    print(f"{launch.what}: {len(names)} tools; stationToilets {STATION} -> {STATION_ID}", flush=True)
    return names


def unpacked_bundle(dist: Path, mcpb: str, scratch: Path) -> Launch:
    """Unpacks the bundle with the official CLI and launches what its manifest names, with
    `${__dirname}` and every `${user_config.*}` filled as a host does (left empty here)."""
    (bundle,) = dist.glob("*.mcpb")
    target = scratch / "bundle"
    subprocess.run([mcpb, "unpack", str(bundle), str(target)], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([mcpb, "validate", str(target / "manifest.json")], check=True, stdout=subprocess.DEVNULL)
    manifest = json.loads((target / "manifest.json").read_text())
    config = manifest["server"]["mcp_config"]
    user_config = manifest["user_config"]
    if not all(user_config[key].get("sensitive") for key in ("tfl_api_key", "digitransit_api_key")):
        raise AssertionError("the bundle's keys are not marked sensitive")

    def filled(text: str) -> str:
        text = text.replace("${__dirname}", str(target))
        return re.sub(r"\$\{user_config\.([a-z_]+)\}", lambda m: "" if m.group(1) in user_config else m.group(0), text)

    env = {name: filled(value) for name, value in config.get("env", {}).items()}
    if any("${" in value for value in env.values()):
        raise AssertionError(f"the bundle's environment names an unknown user_config entry: {config['env']}")
    return Launch("mcpb bundle (unpacked, run by its manifest)", filled(config["command"]), [filled(a) for a in config.get("args", [])], env)


def archive_binary(dist: Path, scratch: Path) -> Path:
    (archive,) = dist.glob(f"{SERVER}-*-x86_64-unknown-linux-gnu.tar.gz")
    with tarfile.open(archive) as tar:
        tar.extractall(scratch / "archive", filter="data")
    (binary,) = (scratch / "archive").glob(f"*/{SERVER}")
    return binary


def configuration_blocks(hosts_md: Path) -> list[tuple[str, str, str]]:
    """Every fenced JSON, TOML and YAML block of the page: (language, file it names, text)."""
    pattern = re.compile(r"^```(json|toml|yaml) ([^\n]+)\n(.*?)^```", re.M | re.S)
    return [(m.group(1), m.group(2).strip(), m.group(3)) for m in pattern.finditer(hosts_md.read_text())]


def launch_of_block(language: str, name: str, text: str, binary: Path) -> Launch:
    """The toolpack server a host's configuration block starts."""
    data = json.loads(text) if language == "json" else tomllib.loads(text) if language == "toml" else yaml.safe_load(text)
    for servers in ("mcpServers", "servers", "mcp_servers", "extensions"):
        if servers in data and "toolpack" in data[servers]:
            entry = data[servers]["toolpack"]
            break
    else:
        raise AssertionError(f"{name}: no toolpack server in the block")
    if entry.get("type", "stdio") != "stdio":
        raise AssertionError(f"{name}: type {entry['type']}")
    command = entry.get("command") or entry.get("cmd")
    env = entry.get("env") or entry.get("envs") or {}
    # What a host fills in: VS Code's inputs; a user's keys are placeholders here.
    env = {k: re.sub(r"\$\{input:[^}]+\}", "", str(v)) for k, v in env.items()}
    if os.path.isabs(command):
        if Path(command).name != SERVER:
            raise AssertionError(f"{name}: runs {command}")
        command = str(binary)  # where the test unpacked the archive
    return Launch(f"{name} ({entry.get('command') or entry.get('cmd')})", command, [str(a) for a in entry.get("args", [])], env)


def every_launch(dist: Path, hosts_md: Path, mcpb: str, scratch: Path) -> list[Launch]:
    binary = archive_binary(dist, scratch)
    launches = [
        Launch("the archive's binary", str(binary), []),
        Launch("uvx toolpack-mcp", "uvx", [SERVER]),
        Launch("pipx run toolpack-mcp", "pipx", ["run", SERVER]),
        Launch("npx -y toolpack-mcp", "npx", ["-y", SERVER]),
        unpacked_bundle(dist, mcpb, scratch),
    ]
    blocks = configuration_blocks(hosts_md)
    named = {name.split(" ")[0] for _, name, _ in blocks}
    missing = [host for file, host in HOST_FILES.items() if file not in named]
    if missing:
        raise AssertionError(f"docs/hosts.md shows no configuration for {missing}")
    launches += [launch_of_block(language, name, text, binary) for language, name, text in blocks]
    return launches


def check(dist: Path, hosts_md: Path, mcpb: str) -> None:
    with tempfile.TemporaryDirectory(prefix="toolpack-hosts-") as scratch_dir:
        scratch = Path(scratch_dir)
        places = Places(dist, scratch, NpmRegistry(dist))
        launches = every_launch(dist, hosts_md, mcpb, scratch)
        binary = launches[0]
        # What the archive's binary lists with the same settings (a tool whose key is set
        # is listed): every way of running it must list exactly that.
        expected: dict[frozenset[tuple[str, str]], list[str]] = {}
        for launch in launches:
            names = asyncio.run(list_and_call(launch, places))
            settings = frozenset(launch.env.items())
            if launch is binary:
                expected[settings] = names
            elif settings not in expected:
                same = Launch(f"{binary.what} with the settings of {launch.what}", binary.command, [], launch.env)
                expected[settings] = asyncio.run(list_and_call(same, places))
            if names != expected[settings]:
                raise AssertionError(f"{launch.what} lists {names}, the binary {expected[settings]}")
        print(f"hosts: {len(launches)} ways to run the server, each listed what the binary lists")
        npm_command_passes_everything_through(places, Path(binary.command))


def installed_npm_command(places: Places) -> Path:
    """`npm install toolpack-mcp` into a fresh project (from the loopback registry); the
    command's path in `node_modules/.bin`."""
    project = places.scratch / "node-project"
    project.mkdir()
    (project / "package.json").write_text('{"name":"consumer","private":true}\n')
    subprocess.run(["npm", "install", "--silent", "--no-package-lock", SERVER], cwd=project, env={**os.environ, **places.env}, check=True)
    return project / "node_modules/.bin" / SERVER


def npm_command_passes_everything_through(places: Places, binary: Path) -> None:
    """The npm command is the binary for its caller: the same exit code and output, a signal
    reaches the server and the command dies of it, leaving no server behind; and on a
    platform with no build it says which platforms have one."""
    command = installed_npm_command(places)
    env = {**os.environ, **places.env}
    refused = ["call", "noSuchTool", "{}"]
    direct = subprocess.run([str(binary), *refused], capture_output=True, text=True, env=env)
    shimmed = subprocess.run([str(command), *refused], capture_output=True, text=True, env=env)
    if direct.returncode == 0 or (shimmed.returncode, shimmed.stdout, shimmed.stderr) != (direct.returncode, direct.stdout, direct.stderr):
        raise AssertionError(f"the npm command answered {shimmed}, the binary {direct}")
    for moment in SIGNAL_MOMENTS:
        signal_leaves_no_server(command, env, places.scratch, moment)
    script = command.resolve()
    elsewhere = subprocess.run(
        ["node", "-e", f"Object.defineProperty(process, 'platform', {{ value: 'darwin' }}); require({json.dumps(str(script))})"],
        capture_output=True, text=True, env=env,
    )
    if elsewhere.returncode != 1 or "darwin-x64" not in elsewhere.stderr or "Supported: linux-x64" not in elsewhere.stderr:
        raise AssertionError(f"on another platform the npm command said {elsewhere}")
    print(f"npm command: exit code {direct.returncode} and output as the binary's; SIGTERM reaches the server; elsewhere: {elsewhere.stderr.strip()}")


# When `signal_leaves_no_server` sends SIGTERM to the npm command: seconds after starting it
# (before node has read the script, or while it does), the instant `spawn` has started the
# server (a preload sends it from inside node, deterministically), or once the server runs.
SIGNAL_MOMENTS: list[float | str] = [0.0, 0.05, 0.1, "as spawn returns", "once the server runs"]

# The preload for "as spawn returns": node signals itself right after `spawn` starts the
# server, before the command's next statement; a command that installs its handlers only
# then dies by default and orphans the server.
SIGNAL_AS_SPAWN_RETURNS = """
const childProcess = require('node:child_process');
const spawn = childProcess.spawn;
childProcess.spawn = (...args) => {
  const child = spawn(...args);
  process.kill(process.pid, 'SIGTERM');
  return child;
};
"""


def signal_leaves_no_server(command: Path, env: dict[str, str], scratch: Path, moment: float | str) -> None:
    """SIGTERM sent to the npm command at `moment` (see SIGNAL_MOMENTS) kills the command by
    that signal and leaves no server behind, whenever it lands. Every process the command
    started carries a marker in its environment, so a server orphaned before the test saw it
    is still found."""
    marker = f"{os.getpid()}-{moment}"
    env = {**env, "TOOLPACK_SIGNAL_PROBE": marker}
    if moment == "as spawn returns":
        preload = scratch / "signal-as-spawn-returns.js"
        preload.write_text(SIGNAL_AS_SPAWN_RETURNS)
        env["NODE_OPTIONS"] = f"--require {preload}"
    server = subprocess.Popen([str(command)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    if moment == "once the server runs":
        children = Path(f"/proc/{server.pid}/task/{server.pid}/children")
        deadline = time.monotonic() + 10
        while not children.read_text().split() and time.monotonic() < deadline:
            time.sleep(0.02)
    elif isinstance(moment, float):
        time.sleep(moment)
    if moment != "as spawn returns":
        server.send_signal(signal.SIGTERM)
    code = server.wait(timeout=10)
    if code != -signal.SIGTERM:
        raise AssertionError(f"the npm command exited {code} on SIGTERM ({moment}), not by the signal")
    deadline = time.monotonic() + 5
    while (left := processes_marked(marker)) and time.monotonic() < deadline:
        time.sleep(0.02)
    if left:
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        raise AssertionError(f"the server outlived the npm command's SIGTERM ({moment})")


def processes_marked(marker: str) -> list[int]:
    """Live (not zombie) processes whose environment holds `TOOLPACK_SIGNAL_PROBE=marker`."""
    wanted = f"TOOLPACK_SIGNAL_PROBE={marker}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if wanted in (entry / "environ").read_bytes().split(b"\0") and "zombie" not in (entry / "status").read_text():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def first_list(launch: Launch, places: Places) -> float:
    """Seconds from spawning `launch` to the first tools/list answer (raw JSON-RPC lines)."""
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "cold-start", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    payload = "".join(json.dumps(m) + "\n" for m in messages).encode()
    start = time.perf_counter()
    process = subprocess.Popen(
        [shutil.which(launch.command, path=places.env["PATH"]) or launch.command, *launch.args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        env={**places.env, **launch.env}, cwd=places.scratch,
    )
    assert process.stdin and process.stdout
    process.stdin.write(payload)
    process.stdin.flush()
    for line in process.stdout:
        if json.loads(line).get("id") == 2:
            break
    took = time.perf_counter() - start
    process.stdin.close()
    process.wait()
    return took


def cold_start(dist: Path, runs: int) -> None:
    with tempfile.TemporaryDirectory(prefix="toolpack-cold-") as scratch_dir:
        scratch = Path(scratch_dir)
        places = Places(dist, scratch, NpmRegistry(dist))
        binary = archive_binary(dist, scratch)
        launches = [
            Launch("the bare binary", str(binary), []),
            Launch("the npm command, installed (node_modules/.bin)", str(installed_npm_command(places)), []),
            Launch("npx -y toolpack-mcp", "npx", ["-y", SERVER]),
            Launch("uvx toolpack-mcp", "uvx", [SERVER]),
            Launch("pipx run toolpack-mcp", "pipx", ["run", SERVER]),
        ]
        for launch in launches:
            first_list(launch, places)  # fills the caches: the runs below are warm
        times: dict[str, list[float]] = {launch.what: [] for launch in launches}
        for _ in range(runs):
            for launch in launches:
                times[launch.what].append(first_list(launch, places))
        bare = statistics.median(times[launches[0].what])
        print(f"cold start to the first tools/list answer, medians of {runs} interleaved runs (warm caches):")
        for what, seconds in times.items():
            median = statistics.median(seconds)
            print(f"  {median * 1000:8.1f} ms  (+{(median - bare) * 1000:7.1f} ms, {median / bare:5.2f}x)  {what}")


if __name__ == "__main__":
    command, *rest = sys.argv[1:]
    if command == "check":
        check(Path(rest[0]).resolve(), Path(rest[1]), rest[2])
    elif command == "cold-start":
        cold_start(Path(rest[0]).resolve(), int(rest[1]))
    else:
        raise SystemExit(__doc__)
