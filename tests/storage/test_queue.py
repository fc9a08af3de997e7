"""S3 event notifications read from an SQS queue: a real S3-compatible server that serves SQS
too (moto's) sends its bucket's notifications to a real queue."""

from __future__ import annotations

import json

from emissions_etl.storage import CreatedObject, delete_received, receive_created
from emissions_etl.storage._queue import created_objects
from tests.s3_server import S3Server


def test_an_object_put_into_a_notified_bucket_is_received_then_its_message_deleted(
    s3: S3Server,
) -> None:
    s3.create_bucket("notified")
    queue = s3.notified_queue("notified", "inbox-events")
    s3.client().put_object(Bucket="notified", Key="inbox/wastes/enero 2026.csv", Body=b"abc")
    etag = s3.client().head_object(Bucket="notified", Key="inbox/wastes/enero 2026.csv")["ETag"]

    received = receive_created(queue)
    delete_received(queue, received.receipts)

    assert received.objects == [
        CreatedObject("s3://notified/inbox/wastes/enero 2026.csv", f"3:{etag.strip(chr(34))}")
    ]
    assert receive_created(queue).receipts == []


def test_a_notification_through_an_sns_topic_is_opened() -> None:
    created = {"key": "in/a+b.csv", "size": 9, "eTag": "e"}
    notice = {"Records": [{"eventName": "ObjectCreated:CompleteMultipartUpload",
                           "s3": {"bucket": {"name": "b"}, "object": created}}]}  # fmt: skip

    found = list(created_objects(json.dumps({"Type": "Notification",
                                             "Message": json.dumps(notice)})))  # fmt: skip

    assert found == [CreatedObject("s3://b/in/a b.csv", "9:e")]


def test_a_test_event_a_deletion_or_a_foreign_body_say_nothing_was_created() -> None:
    where = {"bucket": {"name": "b"}, "object": {"key": "in/a.csv"}}
    removed = {"Records": [{"eventName": "ObjectRemoved:Delete", "s3": where}]}
    bodies = [json.dumps({"Event": "s3:TestEvent", "Bucket": "b"}), json.dumps(removed), "hello"]

    assert [list(created_objects(body)) for body in bodies] == [[], [], []]
