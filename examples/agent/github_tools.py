"""GitHub tools for a coding agent (mistakes on purpose: see README.md)."""

import requests as rq
from langchain_core.tools import tool
from requests import post as send

API = "https://api.github.com"


@tool
def get_issue(repo: str, number: int, token: str) -> str:
    """Fetch an issue; hangs forever if GitHub stops answering."""
    try:
        resp = rq.get(f"{API}/repos/{repo}/issues/{number}", headers={"Authorization": token})
        resp.raise_for_status()
        return resp.json()["title"]
    except Exception as e:
        # The model reads "Error: 404 Client Error..." and guesses what to do.
        return f"Error: {e}"


@tool
def comment(repo: str, number: int, body: str, token: str) -> dict:
    session = rq.Session()
    resp = session.post(f"{API}/repos/{repo}/issues/{number}/comments", json={"body": body})
    return resp.json()


@tool
def open_pull_request(repo: str, title: str, head: str) -> dict:
    try:
        return send(f"{API}/repos/{repo}/pulls", json={"title": title, "head": head}, timeout=None).json()
    except Exception:
        return {}
