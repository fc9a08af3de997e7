"""S3 event notifications read from an SQS queue: the objects a bucket says were created, for an
inbox of more objects than a look can list each minute.

The bucket sends each ``s3:ObjectCreated:*`` event to the queue (its notification
configuration), straight or through an SNS topic; S3 sends it once the object is complete
(multipart uploads included), at least once, sometimes late. The queue is reached through the
AWS chain, as the store is (``AWS_*`` variables, profiles, roles; ``AWS_ENDPOINT_URL`` for an
S3-compatible server); its region is the one its URL names.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, TypedDict
from urllib.parse import unquote_plus, urlsplit

from emissions_etl.storage._errors import store_errors

#: Messages asked for in one receive (SQS's most), and the receives of one look at most.
BATCH = 10
MOST_BATCHES = 100


class _Message(TypedDict, total=False):
    """A message as SQS's ReceiveMessage answers it (the fields read here)."""

    ReceiptHandle: str
    Body: str


class _Received(TypedDict, total=False):
    """ReceiveMessage's answer: no ``Messages`` when the queue had none."""

    Messages: list[_Message]


class _SqsClient(Protocol):
    """What is asked of botocore's SQS client (botocore has no types of its own)."""

    def receive_message(
        self, *, QueueUrl: str, MaxNumberOfMessages: int, WaitTimeSeconds: int
    ) -> _Received: ...

    def delete_message_batch(
        self, *, QueueUrl: str, Entries: Sequence[dict[str, str]]
    ) -> object: ...


@dataclass(frozen=True)
class CreatedObject:
    """An object the bucket said was created: ``s3://bucket/key``, its size and ETag."""

    url: str
    stamp: str


@dataclass(frozen=True)
class Received:
    """What one look took from the queue: the objects created, and each message's receipt (to
    delete the messages once their objects are sent on)."""

    objects: list[CreatedObject]
    receipts: list[str]


def receive_created(queue_url: str, *, wait_seconds: int = 1) -> Received:
    """Every message waiting in the queue (up to ``MOST_BATCHES`` receives), read as the objects
    they say were created; other messages (a test event, a deletion) are receipts only."""
    objects: list[CreatedObject] = []
    receipts: list[str] = []
    with store_errors(queue_url):
        client = _client(queue_url)
        for _ in range(MOST_BATCHES):
            answer = client.receive_message(
                QueueUrl=queue_url, MaxNumberOfMessages=BATCH, WaitTimeSeconds=wait_seconds
            )
            messages = answer.get("Messages") or []
            for message in messages:
                receipts.append(str(message["ReceiptHandle"]))
                objects += list(created_objects(str(message.get("Body") or "")))
            if len(messages) < BATCH:
                break
    return Received(objects, receipts)


def delete_received(queue_url: str, receipts: list[str]) -> None:
    """The messages of ``receipts`` deleted from the queue, in batches of ten."""
    with store_errors(queue_url):
        client = _client(queue_url)
        for start in range(0, len(receipts), BATCH):
            entries = [{"Id": str(n), "ReceiptHandle": receipt}
                       for n, receipt in enumerate(receipts[start : start + BATCH])]  # fmt: skip
            client.delete_message_batch(QueueUrl=queue_url, Entries=entries)


def created_objects(body: str) -> Iterator[CreatedObject]:
    """The objects an S3 event notification's body says were created (an SNS envelope opened;
    anything else, or a body that is no notification, says none)."""
    try:
        notice = json.loads(body)
        if isinstance(notice, dict) and isinstance(notice.get("Message"), str):
            notice = json.loads(notice["Message"])  # through an SNS topic
    except json.JSONDecodeError:
        return
    records = notice.get("Records") if isinstance(notice, dict) else None
    for record in records or []:
        if not str(record.get("eventName", "")).startswith("ObjectCreated:"):
            continue
        s3 = record.get("s3") or {}
        bucket = (s3.get("bucket") or {}).get("name")
        found = s3.get("object") or {}
        if bucket and found.get("key"):
            key = unquote_plus(str(found["key"]))
            yield CreatedObject(f"s3://{bucket}/{key}", f"{found.get('size')}:{found.get('eTag')}")


def _client(queue_url: str) -> _SqsClient:
    """An SQS client in the queue's region (``sqs.<region>.amazonaws.com/...``), through the
    AWS chain."""
    import botocore.session

    host = urlsplit(queue_url).hostname or ""
    parts = host.split(".")
    region = parts[1] if len(parts) > 2 and parts[0] == "sqs" else None
    client: _SqsClient = botocore.session.get_session().create_client("sqs", region_name=region)
    return client
