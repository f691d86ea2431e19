"""A shell tool (mistakes on purpose)."""

import subprocess
import traceback

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("shell")


@mcp.tool()
def run_command(cmd: list[str]) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=True)
        return out.stdout
    except subprocess.CalledProcessError as err:
        return str(err)
    except Exception:
        return traceback.format_exc()


@mcp.tool()
def run_with_deadline(cmd: list[str]) -> str:
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE)
    try:
        out, _ = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()  # the documented clean-up idiom: fine
    return out.decode()
