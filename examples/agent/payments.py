"""A payments tool (mistakes on purpose)."""

import smtplib

import httpx
from agents import function_tool
from tenacity import retry, stop_after_attempt


@function_tool
@retry(stop=stop_after_attempt(5))
def charge(customer: str, cents: int) -> dict:
    # Retried blindly: a timeout after the charge went through charges twice.
    with httpx.Client() as client:
        return client.post("https://api.pay.example/charges", json={"customer": customer, "amount": cents}).json()


@function_tool
def send_receipt(to: str, text: str) -> None:
    with smtplib.SMTP("mail.example.com") as smtp:
        smtp.sendmail("billing@example.com", [to], text)


@function_tool
async def fetch_rates() -> dict:
    async with httpx.AsyncClient(timeout=None) as client:
        return (await client.get("https://rates.example/latest")).json()
